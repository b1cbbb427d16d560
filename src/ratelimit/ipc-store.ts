import type { IpcRpcClient, RpcHandlers } from '../shared/ipc-rpc.js';
import type { BucketRef, TakeOutcome } from './bucket-store.js';
import type { Lease, LeaseSource } from './lease-store.js';
import type { MemoryBucketStore } from './memory-store.js';

/**
 * Token buckets kept by the cluster primary, for workers without Redis (WORKERS>1, no REDIS_URL):
 * each take or pause is a question over the worker's IPC channel to the primary's one
 * MemoryBucketStore, so N workers admit together exactly what one process would. The primary
 * answers one message at a time, which makes every take atomic across workers, as Redis' Lua does.
 *
 * There is no synchronous `takeNow` here: the answer takes an IPC round trip. The worker puts a
 * LeasingBucketStore in front (createRateLimiters, as over Redis), which leases batches of tokens
 * through `lease` and `giveBack` and answers most takes from its own memory, synchronously.
 */

export const TAKE = 'ratelimit.take';
export const PAUSE = 'ratelimit.pause';
export const LEASE = 'ratelimit.lease';
export const GIVE_BACK = 'ratelimit.giveBack';

export class IpcBucketStore implements LeaseSource {
  constructor(
    private readonly rpc: IpcRpcClient,
    /** A primary silent this long counts as a failure (the failure policy around this store decides). */
    private readonly timeoutMs = 2_000,
  ) {}

  take(buckets: readonly BucketRef[], cost = 1): Promise<TakeOutcome> {
    return this.rpc.call<TakeOutcome>(TAKE, { buckets, cost }, this.timeoutMs);
  }

  lease(buckets: readonly BucketRef[], want: number, least: number): Promise<Lease> {
    return this.rpc.call<Lease>(LEASE, { buckets, want, least }, this.timeoutMs);
  }

  async giveBack(buckets: readonly BucketRef[], tokens: number): Promise<void> {
    await this.rpc.call(GIVE_BACK, { buckets, tokens }, this.timeoutMs);
  }

  async pause(buckets: readonly BucketRef[], durationMs: number): Promise<void> {
    await this.rpc.call(PAUSE, { buckets, durationMs }, this.timeoutMs);
  }

  /** The buckets belong to the primary: nothing to free here (the channel is the worker's). */
  async close(): Promise<void> {}
}

/** The primary's side: answers workers' takes, leases, give-backs and pauses from one in-memory store. */
export function bucketStoreHandlers(store: MemoryBucketStore): RpcHandlers {
  return {
    [TAKE]: ({ buckets, cost }: { buckets: BucketRef[]; cost: number }) => store.takeNow(buckets, cost),
    [LEASE]: ({ buckets, want, least }: { buckets: BucketRef[]; want: number; least: number }) => store.leaseNow(buckets, want, least),
    [GIVE_BACK]: ({ buckets, tokens }: { buckets: BucketRef[]; tokens: number }) => store.giveBack(buckets, tokens),
    [PAUSE]: ({ buckets, durationMs }: { buckets: BucketRef[]; durationMs: number }) => store.pause(buckets, durationMs),
  };
}
