import { createHash, createHmac } from 'node:crypto';
import { appendFile, open, stat } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import type { CredentialEntry } from './credential-map.js';

/**
 * The pairs of mapped keys whose secret was once hashed and matched, kept past a restart and
 * shared between instances, so that the owner's first call after either is accepted without a
 * scrypt check and without the secret-check budget a flood of wrong secrets spends (local-check.ts).
 *
 * What is kept is a verifier per pair: an HMAC-SHA256 of key, secret and until when the secret is
 * valid, under a key made from the entry's own secret hashes (their salts and scrypt outputs, which
 * only the credentials file holds). Never the secret; and the verifiers alone (Redis, or the file
 * beside the credentials file) cannot be checked against a guess without that file. Any change to
 * the entry's secrets (a rotation, a revoked previous secret) changes the key, so every verifier
 * made under the old entry stops matching at once. Why this and not a cheaper or a stronger hash:
 * docs/decisions.md ("Owner-first secret checks").
 */

/** One pair's verifiers to look for: one per secret of its entry still in its time, with that time. */
export interface Candidate {
  verifier: string;
  /** Until when the secret it stands for is valid (epoch ms; Infinity for the current secret). */
  untilMs: number;
}

/** The HMAC key of an entry's verifiers: a digest of every secret hash it holds, so any change to them makes a new key. */
function entryKey(entry: CredentialEntry): Buffer {
  const hashes = createHash('sha256').update('v1gate proven secrets\n').update(entry.secret_hash);
  for (const previous of entry.previous_secrets) hashes.update(`\n${previous.secret_hash}\n${previous.until}`);
  return hashes.digest();
}

/** One verifier: the pair and its secret's time, under the entry's key. */
function macOf(key: Buffer, apiKey: string, secret: string, untilMs: number): string {
  return createHmac('sha256', key).update(apiKey).update('\0').update(secret).update('\0').update(String(untilMs)).digest('base64url');
}

/** The verifier to remember for a pair whose secret matched, valid until `untilMs` (Infinity: the current secret). */
export function verifierOf(entry: CredentialEntry, secret: string, untilMs: number): string {
  return macOf(entryKey(entry), entry.api_key, secret, untilMs);
}

/** The verifiers a pair would have been remembered under: one per secret of the entry still valid at `nowMs`. */
export function candidatesOf(entry: CredentialEntry, secret: string, nowMs: number): Candidate[] {
  const untils = [Infinity, ...entry.previous_secrets.map((p) => Date.parse(p.until)).filter((until) => until > nowMs)];
  const key = entryKey(entry);
  return untils.map((untilMs) => ({ verifier: macOf(key, entry.api_key, secret, untilMs), untilMs }));
}

/** Where the verifiers are kept: Redis (shared by every instance) or a file beside the credentials file. */
export interface ProvenSecretStore {
  /** The first of `candidates` remembered for `apiKey`, or undefined. Never throws: a store that fails knows nothing. */
  find(apiKey: string, candidates: readonly Candidate[]): Promise<Candidate | undefined>;
  /** Remembers a verifier made after a hash check matched. Never throws: a store that fails remembers nothing. */
  remember(apiKey: string, verifier: string): Promise<void>;
  close(): Promise<void>;
}

/** How long Redis keeps a verifier no instance has found since (ms): a key unused for 30 days is hashed again once. */
export const REDIS_VERIFIER_TTL_MS = 30 * 24 * 3600_000;

/** Verifiers in Redis, one key each, `{<api_key>}` as the hash tag so that one key's are in one slot. */
export class RedisProvenSecrets implements ProvenSecretStore {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly ownsConnection = true,
  ) {}

  private keyOf(apiKey: string, verifier: string): string {
    return `${this.keyPrefix}proven-secret:{${apiKey}}:${verifier}`;
  }

  async find(apiKey: string, candidates: readonly Candidate[]): Promise<Candidate | undefined> {
    try {
      const keys = candidates.map((c) => this.keyOf(apiKey, c.verifier));
      const found = await this.redis.mget(keys);
      const at = found.findIndex((value) => value !== null);
      if (at === -1) return undefined;
      void this.redis.pexpire(keys[at]!, REDIS_VERIFIER_TTL_MS).catch(() => undefined);
      return candidates[at];
    } catch {
      return undefined;
    }
  }

  async remember(apiKey: string, verifier: string): Promise<void> {
    try {
      await this.redis.set(this.keyOf(apiKey, verifier), '1', 'PX', REDIS_VERIFIER_TTL_MS);
    } catch {
      // Not remembered: the pair's next check after a restart is hashed again, under the budget.
    }
  }

  async close(): Promise<void> {
    if (this.ownsConnection) this.redis.disconnect();
  }
}

/**
 * The most verifiers a process keeps from the file (the newest): twice the credential map's most
 * entries. The file itself grows only by a line per secret that matched, never by a guess.
 */
export const FILE_MAX_VERIFIERS = 200_000;

/**
 * Verifiers in a file, one a line, appended as pairs are proven. Read whole at start; when a pair
 * is not found, the lines other processes (cluster workers) appended since are read first.
 * A file that cannot be written leaves the verifiers in memory, reported once through `onProblem`.
 */
export class FileProvenSecrets implements ProvenSecretStore {
  private readonly known = new Set<string>();
  /** Bytes of the file read so far. */
  private readBytes = 0;
  private catchingUp: Promise<void> | undefined;
  private reported = false;

  constructor(
    readonly file: string,
    private readonly onProblem: (problem: string) => void = () => undefined,
  ) {
    let text = '';
    try {
      text = readFileSync(file, 'latin1');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.report(error);
    }
    this.take(text);
  }

  async find(apiKey: string, candidates: readonly Candidate[]): Promise<Candidate | undefined> {
    const hit = () => candidates.find((c) => this.known.has(c.verifier));
    const found = hit();
    if (found) return found;
    // Concurrent misses share one look at the file.
    await (this.catchingUp ??= this.catchUp().finally(() => (this.catchingUp = undefined)));
    return hit();
  }

  async remember(_apiKey: string, verifier: string): Promise<void> {
    if (this.known.has(verifier)) return;
    this.known.add(verifier);
    try {
      await appendFile(this.file, `${verifier}\n`, { mode: 0o600 });
    } catch (error) {
      this.report(error);
    }
  }

  async close(): Promise<void> {
    await this.catchingUp;
  }

  private async catchUp(): Promise<void> {
    try {
      const { size } = await stat(this.file);
      if (size <= this.readBytes) return;
      const handle = await open(this.file, 'r');
      try {
        const buffer = Buffer.alloc(size - this.readBytes);
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, this.readBytes);
        this.take(buffer.subarray(0, bytesRead).toString('latin1'), this.readBytes);
      } finally {
        await handle.close();
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.report(error);
    }
  }

  /** Adds the whole lines of `text` (read from `from`); a line still being written is read next time. */
  private take(text: string, from = 0): void {
    const end = text.lastIndexOf('\n') + 1;
    this.readBytes = from + end;
    const lines = text.slice(0, end).split('\n');
    for (const line of lines.slice(Math.max(0, lines.length - 1 - FILE_MAX_VERIFIERS))) {
      if (VERIFIER.test(line)) this.known.add(line);
    }
    // The oldest go first: a Set iterates in insertion order.
    for (const verifier of this.known) {
      if (this.known.size <= FILE_MAX_VERIFIERS) break;
      this.known.delete(verifier);
    }
  }

  private report(error: unknown): void {
    if (this.reported) return;
    this.reported = true;
    this.onProblem(
      `${this.file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}; proven secrets are kept in memory only`,
    );
  }
}

/** An HMAC-SHA256 in base64url: what a line of the file must be. */
const VERIFIER = /^[A-Za-z0-9_-]{43}$/;

export interface ProvenSecretsPlace {
  /** V2_CREDENTIALS_FILE: without Redis, the verifiers are kept beside it (`<file>.proven`). */
  credentialsFile: string;
  /** REDIS_URL and the limits' own prefix and timeout: with it, the verifiers are shared there by every instance. */
  redis?: { url: string; keyPrefix: string; timeoutMs: number } | undefined;
  /** Told once when the file cannot be read or written. */
  onProblem?: (problem: string) => void;
}

/**
 * The store where the deployment keeps proven pairs: Redis when it has one (every instance shares
 * it), else a file beside the credentials file. Its connection waits for Redis to be up before it
 * answers (within the timeout): a lookup refused at once while connecting would send the owner's
 * first call after a start to the budget it is there to spare.
 */
export function provenSecretStoreOf(place: ProvenSecretsPlace): ProvenSecretStore {
  if (!place.redis) return new FileProvenSecrets(`${place.credentialsFile}.proven`, place.onProblem);
  const redis = new Redis(place.redis.url, {
    commandTimeout: place.redis.timeoutMs,
    maxRetriesPerRequest: 0,
    connectTimeout: Math.max(1_000, place.redis.timeoutMs * 10),
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
  });
  // Failures surface on the commands, which answer "not found": the pair is hashed under the budget instead.
  redis.on('error', () => {});
  return new RedisProvenSecrets(redis, place.redis.keyPrefix);
}
