import type { GatewayConfig } from '../config.js';
import type { Logger } from 'pino';
import type { KnownSecrets } from '../shared/secrets.js';
import type { V2Client } from '../upstream/client.js';
import { CallWithdrawn, SHUTTING_DOWN_UNSENT } from '../upstream/errors.js';
import { Departure } from '../shared/leaving.js';
import type { V2Credentials } from '../upstream/auth/v2-credentials.js';
import { v2SecretsOf } from './secrets.js';

/**
 * A gateway's life around its routes: where it listens, the calls in flight, what it holds open,
 * and what a shutdown (drain) and a SIGHUP (reload) do with them.
 */

/** Calls in flight, for a graceful shutdown. */
export class InFlight {
  draining = false;
  private count = 0;
  private waiters: (() => void)[] = [];

  started(): void {
    this.count++;
  }

  finished(): void {
    this.count--;
    if (this.count === 0) for (const wake of this.waiters.splice(0)) wake();
  }

  /** Resolves true when no call is in flight, false when `timeoutMs` passed first. */
  idle(timeoutMs: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}

/** Where the gateway listens: known once the server does (PORT=0 picks the port then). */
export class ListenAddress {
  private port: number | undefined;

  constructor(private readonly config: GatewayConfig) {}

  listened(port: number): void {
    this.port = port;
  }

  /** `http://host:port` as this machine reaches it (a wildcard HOST is reached on loopback). */
  get origin(): string {
    if (this.port === undefined) throw new Error('The gateway is not listening yet: its address is unknown.');
    const host = this.config.host === '0.0.0.0' || this.config.host === '::' ? '127.0.0.1' : this.config.host;
    return `http://${host.includes(':') ? `[${host}]` : host}:${this.port}`;
  }

  /** V2_BASE_URL, or the embedded sandbox on this gateway's own port (where users reach it). */
  get v2BaseUrl(): string {
    return this.config.v2BaseUrl ?? `${this.origin}/v2`;
  }

  /** The embedded sandbox's own loopback listener, once it listens. */
  private sandboxOrigin: string | undefined;

  sandboxListened(origin: string): void {
    this.sandboxOrigin = origin;
  }

  /** Where the gateway calls v2: V2_BASE_URL, or the embedded sandbox on its own listener. */
  get upstreamUrl(): string {
    return this.config.v2BaseUrl ?? `${this.sandboxOrigin ?? this.origin}/v2`;
  }
}

/** What a gateway holds open, closed newest first (so the server stops before what it calls). */
export class Resources {
  private readonly closers: (() => unknown)[] = [];

  add(close: () => unknown): void {
    this.closers.push(close);
  }

  async closeAll(): Promise<void> {
    for (const close of this.closers.splice(0).reverse()) await Promise.resolve(close()).catch(() => {});
  }
}

/**
 * What a shutdown past its grace stops: v2 calls, then (once rollbacks had their time) undos. A
 * call still waiting for its outbound token then is withdrawn at once, never sent.
 */
export class OutboundStop {
  readonly calls = new Departure();
  readonly undos = new Departure();
}

/** Reads V2_CREDENTIALS_FILE again: the new map serves the next calls, its secrets redacted like the first's. */
export function reloadCredentials(
  credentials: V2Credentials,
  { file, logger, secrets }: { file: GatewayConfig['credentials']['file']; logger: Logger; secrets: KnownSecrets },
): ReturnType<V2Credentials['reload']> {
  const reloaded = credentials.reload();
  if (!reloaded.ok) {
    logger.warn({ problems: reloaded.problems }, 'V2_CREDENTIALS_FILE not reloaded: the map in force stays');
    return reloaded;
  }
  // The new map's v2 secrets are redacted like the first's.
  secrets.add(v2SecretsOf(credentials.entries()));
  logger.info({ file, keys: reloaded.keys }, 'V2_CREDENTIALS_FILE reloaded');
  return reloaded;
}

/** Refuse new calls, wait up to `graceMs` for those in flight, then fail their v2 calls still running, and close. */
export async function drain(
  { work, stop, v2, rollbackMs }: { work: InFlight; stop: OutboundStop; v2: V2Client; rollbackMs: number },
  graceMs: number,
  close: () => Promise<void>,
): Promise<void> {
  work.draining = true;
  if (!(await work.idle(graceMs))) {
    // Past the grace: calls not yet sent are withdrawn (answered as not applied), calls in flight
    // fail; undos go on, on a pool of their own, so a rollback in progress can still finish.
    stop.calls.leave(new CallWithdrawn(SHUTTING_DOWN_UNSENT));
    await v2.abort().catch(() => {});
    if (!(await work.idle(rollbackMs))) {
      // Rollbacks had UPSTREAM_TIMEOUT_MS more: an undo still unsent is withdrawn, one in flight fails.
      stop.undos.leave(new CallWithdrawn(SHUTTING_DOWN_UNSENT));
      await v2.abortUndos().catch(() => {});
      await work.idle(2_000);
    }
  }
  await close();
}
