import { readOnlyGate } from '../compare/shadow.js';
import type { GatewayConfig } from '../config.js';
import { isLoopbackHost } from '../shared/loopback.js';
import { createRateLimiters, rateLimitHeaders, type RateLimiters } from '../ratelimit/index.js';
import { type Sandbox } from '../sandbox/app.js';
import { embeddedAppOf } from '../sandbox/oauth/embedded.js';
import { V2Client, openGate, type OutboundGate } from '../upstream/client.js';
import { EitherLeaving } from '../shared/leaving.js';
import { sandboxAccountListAt } from '../upstream/auth/sandbox-accounts.js';
import type { EmbeddedApps } from '../upstream/auth/authorizer.js';
import { v2CredentialsOf, type V2Credentials } from '../upstream/auth/v2-credentials.js';
import { provenSecretStoreOf } from '../upstream/auth/proven-secrets.js';
import { PairProver } from '../upstream/pair-proof.js';
import { ProofLimiter, SECRET_CHECK_LIMITS } from '../ratelimit/proof-budget.js';
import { chargeTo, limiterGate } from '../upstream/outbound-gate.js';
import type { V2Budgets } from '../upstream/outbound-budget.js';
import type { InboundGate } from '../v1-steps/admit.js';
import type { Parts } from './parts.js';
import { OutboundStop } from './lifecycle.js';
import { regionalBase } from '../upstream/auth/api-url.js';
import { prefixOf } from '../shared/route-owners.js';

/** What the gateway calls v2 with: the limiters, the credentials, the v2 client over its outbound gate, the pair prover. */

/** The facade's inbound gate, backed by the v1 limiter: its decision and the X-RateLimit-* headers. */
export function inboundGate(limiters: RateLimiters): InboundGate {
  return {
    async check(owner, v1Path) {
      const decision = await limiters.inbound.check(owner, v1Path);
      return { allowed: decision.allowed, headers: rateLimitHeaders(decision) };
    },
  };
}

/** The v2 client's outbound gate, backed by the v2 limiter; a shutdown withdraws the calls waiting in it. */
export function outboundGate(limiters: RateLimiters, stop: OutboundStop, budgets: V2Budgets): OutboundGate {
  return limiterGate(limiters.outbound, budgets, (options) => ({
    ...options,
    leaving: new EitherLeaving(options.leaving, options.priority === 'undo' ? stop.undos : stop.calls),
  }));
}

/** v1 and v2 limits: this process's buckets, Redis's, or (a cluster worker) the primary's. */
export function createLimiters({ config, overrides, resources, log }: Parts): RateLimiters {
  const shared = overrides.cluster?.limiterStore;
  const limiters = createRateLimiters(config.rateLimits, { logger: log.logger, ...(shared ? { shared } : {}) });
  resources.add(() => limiters.close());
  return limiters;
}

/**
 * The sandbox's accounts as this gateway reaches them, if it is over one: the embedded sandbox's
 * state, or, from a cluster worker (whose sandbox runs in the primary) or over a sandbox elsewhere
 * on this machine (npm run sandbox, another gateway), that sandbox's account list. None other is asked.
 */
export interface SandboxAccounts {
  /** The OAuth app a pair of one of its accounts acts as (today's v2 takes no JWT: docs/decisions.md). */
  appOf: EmbeddedApps;
  /** The secret of the account whose api_key this is: what a download link, which carries none, fetches its file with. */
  secretOf: (apiKey: string) => string | undefined | Promise<string | undefined>;
}

export function sandboxAccountsOf({ config, overrides }: Parts, sandbox: Sandbox | undefined): SandboxAccounts | undefined {
  const sandboxOnThisMachine =
    config.v2BaseUrl && isLoopbackHost(new URL(config.v2BaseUrl).hostname) ? new URL(config.v2BaseUrl).origin : undefined;
  const hub = overrides.cluster?.hubPaths.includes(prefixOf('sandboxControl')) ? overrides.cluster.hubOrigin : sandboxOnThisMachine;
  if (hub) return sandboxAccountListAt(hub, config.upstream.timeoutMs);
  if (!sandbox) return undefined;
  return {
    appOf: (pair) => embeddedAppOf(sandbox.state, pair.apiKey, pair.apiSecret),
    secretOf: (apiKey) => sandbox.state.accountsByKey.get(apiKey)?.apiSecret,
  };
}

/**
 * Whom the gateway acts as toward v2: each pair's own JWT, or (V2_CREDENTIALS_FILE) the v2 app the
 * credential map names for the key, whose v1 secret the map checks here. Hash checks of new pairs
 * are bounded per key and across keys, in the limiters' store; pairs that matched are remembered
 * in Redis (with REDIS_URL) or beside the credentials file, so their owners skip that budget.
 */
export function createV2Credentials(
  { config, address, resources, log }: Parts,
  limiters: RateLimiters,
  sandboxAccounts: SandboxAccounts | undefined,
): V2Credentials {
  const { redis } = config.rateLimits;
  return v2CredentialsOf(config.credentials, {
    ...(sandboxAccounts ? { embedded: sandboxAccounts.appOf } : {}),
    defaultPlan: config.rateLimits.v2.defaultPlan,
    jwtTtlSeconds: config.upstream.jwtTtlSeconds,
    timeoutMs: config.upstream.timeoutMs,
    v2BaseUrl: () => address.upstreamUrl,
    budget: new ProofLimiter(limiters.store, SECRET_CHECK_LIMITS, 'secret-check'),
    proven: (credentialsFile) => {
      const store = provenSecretStoreOf({
        credentialsFile,
        redis: redis.url ? { url: redis.url, keyPrefix: redis.keyPrefix, timeoutMs: redis.timeoutMs } : undefined,
        onProblem: (problem) => log.logger.warn(problem),
      });
      resources.add(() => store.close());
      return store;
    },
  });
}

/** The v2 client, over the limiter's outbound gate (none with the v2 limits off: nothing to await per call). */
export function createV2Client(
  { config, overrides, address, resources, stop }: Parts,
  limiters: RateLimiters,
  credentials: V2Credentials,
  mayWrite = false,
): V2Client {
  const v2 = new V2Client({
    baseUrl: config.v2BaseUrl ?? (() => address.upstreamUrl),
    authorizer: credentials.authorizer,
    gate: shadowed(
      config,
      overrides.outbound ?? (config.rateLimits.v2.enabled ? outboundGate(limiters, stop, credentials.budgets) : openGate),
      mayWrite,
    ),
    connections: config.upstream.connections,
    timeoutMs: config.upstream.timeoutMs,
    maxAttempts: config.upstream.maxAttempts,
    maxBodyBytes: config.upstream.maxBodyBytes,
    ...(config.upstream.followApiUrl ? { apiUrlBase: regionalBase } : {}),
  });
  resources.add(() => v2.close()); // already aborted past a shutdown's grace and its time for rollbacks
  return v2;
}

/**
 * In shadow mode the client serves only the comparisons (and the promoted reads), which must never
 * write: it sends reads alone. The one that may write serves the writes of SHADOW_SERVE_WRITES.
 */
export const shadowed = (config: GatewayConfig, gate: OutboundGate, mayWrite: boolean): OutboundGate =>
  config.shadow.primaryUrl && !mayWrite ? readOnlyGate(gate) : gate;

/**
 * Where pairs are proven. With the v2 limits on, proofs are bounded per key and in all (the proof
 * budget), and one v2 accepted is charged to its key's outbound buckets afterwards.
 */
export function createPairProver({ config, overrides }: Parts, limiters: RateLimiters, budgets: V2Budgets): PairProver {
  if (!config.rateLimits.v2.enabled || overrides.outbound) return new PairProver();
  return new PairProver({ budget: new ProofLimiter(limiters.store), charge: chargeTo(limiters.outbound, budgets) });
}
