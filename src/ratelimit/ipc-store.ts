import type { IpcRpcClient, RpcHandlers } from '../shared/ipc-rpc.js';
import type { BucketRef, BucketStore, TakeOutcome } from './bucket-store.js';
import type { MemoryBucketStore } from './memory-store.js';

/**
 * Token buckets kept by the cluster primary, for workers without Redis (WORKERS>1, no REDIS_URL):
 * each take or pause is a question over the worker's IPC channel to the primary's one
 * MemoryBucketStore, so N workers admit together exactly what one process would. The primary
 * answers one message at a time, which makes every take atomic across workers, as Redis' Lua does.
 *
 * There is no synchronous `takeNow` here: the answer takes an IPC round trip, so the limiters use
 * their asynchronous path (a promise per take).
 */

export const TAKE = 'ratelimit.take';
export const PAUSE = 'ratelimit.pause';

export class IpcBucketStore implements BucketStore {
  constructor(
    private readonly rpc: IpcRpcClient,
    /** A primary silent this long counts as a failure (the failure policy around this store decides). */
    private readonly timeoutMs = 2_000,
  ) {}

  take(buckets: readonly BucketRef[], cost = 1): Promise<TakeOutcome> {
    return this.rpc.call<TakeOutcome>(TAKE, { buckets, cost }, this.timeoutMs);
  }

  async pause(buckets: readonly BucketRef[], durationMs: number): Promise<void> {
    await this.rpc.call(PAUSE, { buckets, durationMs }, this.timeoutMs);
  }

  /** The buckets belong to the primary: nothing to free here (the channel is the worker's). */
  async close(): Promise<void> {}
}

/** The primary's side: answers workers' takes and pauses from one in-memory store. */
export function bucketStoreHandlers(store: MemoryBucketStore): RpcHandlers {
  return {
    [TAKE]: ({ buckets, cost }: { buckets: BucketRef[]; cost: number }) => store.takeNow(buckets, cost),
    [PAUSE]: ({ buckets, durationMs }: { buckets: BucketRef[]; durationMs: number }) => store.pause(buckets, durationMs),
  };
}
