import { Redis } from 'ioredis';
import { outcomeOf, type BucketReading, type BucketRef, type BucketStore, type TakeOutcome } from './bucket-store.js';
import type { Lease, LeaseSource } from './lease-store.js';
import { GIVE_BACK_SCRIPT, LEASE_SCRIPT, PAUSE_SCRIPT, TAKE_SCRIPT } from './redis-scripts.js';

/**
 * Token buckets in Redis, shared by every gateway process that uses the same Redis and prefix.
 * Each operation is one Lua script (redis-scripts.ts), sent with EVALSHA and re-sent with EVAL
 * when the server does not know it yet (ioredis's defineCommand does both).
 *
 * This store reports Redis errors as they are; failure-policy.ts decides what they mean.
 */

export interface RedisBucketStoreOptions {
  /** Prepended to every bucket key (the limiters' keys already carry their own direction and class). */
  keyPrefix?: string;
  /** Tests only: a fixed clock instead of the server's TIME, to compare with takeToken step by step. */
  clock?: () => number;
  /** Close the connection on close() (true when this store created it). */
  ownsConnection?: boolean;
}

type ScriptCommand = (numKeys: number, ...args: (string | number)[]) => Promise<unknown>;

const TAKE = 'v1gateRateLimitTake';
const PAUSE = 'v1gateRateLimitPause';
const LEASE = 'v1gateRateLimitLease';
const GIVE_BACK = 'v1gateRateLimitGiveBack';
const SCRIPTS: [string, string][] = [
  [TAKE, TAKE_SCRIPT],
  [PAUSE, PAUSE_SCRIPT],
  [LEASE, LEASE_SCRIPT],
  [GIVE_BACK, GIVE_BACK_SCRIPT],
];

export class RedisBucketStore implements BucketStore, LeaseSource {
  private readonly keyPrefix: string;
  private readonly clock: (() => number) | undefined;
  private readonly ownsConnection: boolean;

  constructor(
    readonly redis: Redis,
    options: RedisBucketStoreOptions = {},
  ) {
    this.keyPrefix = options.keyPrefix ?? '';
    this.clock = options.clock;
    this.ownsConnection = options.ownsConnection ?? false;
    for (const [name, lua] of SCRIPTS) redis.defineCommand(name, { lua });
  }

  /**
   * Load every script into the server now, so the first take of a fresh process is one EVALSHA
   * and not a NOSCRIPT miss plus an EVAL (two round trips that can trip the command timeout
   * and send a cold process to its fallback buckets).
   */
  async preload(): Promise<void> {
    await Promise.all(SCRIPTS.map(([, lua]) => this.redis.script('LOAD', lua)));
  }

  async take(refs: readonly BucketRef[], cost = 1): Promise<TakeOutcome> {
    if (refs.length === 0) return outcomeOf([]);
    const reply = await this.run(TAKE, refs, cost);
    if (!Array.isArray(reply) || reply.length !== 1 + 2 * refs.length) {
      throw new Error(`Unexpected reply from the rate-limit script: ${JSON.stringify(reply)}`);
    }
    return outcomeOf(readingsOf(reply, refs.length));
  }

  /** Up to `want` tokens from every bucket in one round trip (LEASE_SCRIPT); 0 granted when fewer than `least`. */
  async lease(refs: readonly BucketRef[], want: number, least: number): Promise<Lease> {
    const reply = await this.run(LEASE, refs, want, [least]);
    if (!Array.isArray(reply) || reply.length !== 1 + 2 * refs.length) {
      throw new Error(`Unexpected reply from the lease script: ${JSON.stringify(reply)}`);
    }
    return { granted: Number(reply[0]), outcome: outcomeOf(readingsOf(reply, refs.length)) };
  }

  async giveBack(refs: readonly BucketRef[], tokens: number): Promise<void> {
    if (refs.length === 0 || tokens <= 0) return;
    await this.run(GIVE_BACK, refs, tokens);
  }

  async pause(refs: readonly BucketRef[], durationMs: number): Promise<void> {
    if (refs.length === 0 || durationMs <= 0) return;
    await this.run(PAUSE, refs, Math.ceil(durationMs));
  }

  async close(): Promise<void> {
    if (!this.ownsConnection) return;
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }

  private run(command: string, refs: readonly BucketRef[], first: number, last: number[] = []): Promise<unknown> {
    const args: (string | number)[] = [
      ...refs.map((r) => this.keyPrefix + r.key),
      first,
      this.clock ? String(this.clock()) : '',
      ...refs.flatMap((r) => [r.spec.ratePerSecond, r.spec.burst]),
      ...last,
    ];
    // ioredis's defineCommand adds each script as a method at run time; its types cannot know them.
    const script = (this.redis as unknown as Record<string, ScriptCommand>)[command]!;
    return script.call(this.redis, refs.length, ...args);
  }
}

/** A script's per-bucket pairs (tokens, retry after ms), after its first element. */
function readingsOf(reply: unknown[], n: number): BucketReading[] {
  return Array.from({ length: n }, (_, i) => ({ tokens: Number(reply[1 + 2 * i]), retryAfterMs: Number(reply[2 + 2 * i]) }));
}

export interface RedisConnectionOptions {
  /** Per-command timeout in ms: a slow Redis counts as a failing one. */
  commandTimeoutMs: number;
}

/**
 * A connection tuned for rate limiting: commands are never queued while disconnected (a take
 * queued for seconds and run late would spend tokens for requests long answered), they time out
 * quickly, and the client keeps reconnecting in the background forever.
 */
export function connectRedis(url: string, options: RedisConnectionOptions): Redis {
  const redis = new Redis(url, {
    commandTimeout: options.commandTimeoutMs,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: Math.max(1_000, options.commandTimeoutMs * 10),
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
  });
  // Errors surface on the commands (and in failure-policy.ts's log); without a listener
  // ioredis would print every reconnect attempt as an unhandled error event.
  redis.on('error', () => {});
  return redis;
}
