import { IpcRpcError, type IpcRpcClient, type RpcHandlers } from '../shared/ipc-rpc.js';
import type { BucketRef, TakeOutcome } from './bucket-store.js';
import type { Lease, LeaseSource } from './lease-store.js';
import type { MemoryBucketStore } from './memory-store.js';

/**
 * Token buckets kept by the cluster primary, for workers without Redis (WORKERS>1, no REDIS_URL):
 * each take, lease, give-back or pause is a question over the worker's IPC channel to the
 * primary's one MemoryBucketStore, so N workers admit together exactly what one process would.
 *
 * Questions asked within one turn of the event loop travel together: they are queued, and one
 * message carries them all once the turn's I/O callbacks have run (setImmediate), or at once when
 * `maxBatch` are waiting, so a tick cannot build an unbounded message. The primary answers a batch
 * in one message, running its operations one after the other in the order they were asked, without
 * yielding between them, so each gets the outcome it would have got alone: batches from several
 * workers never interleave, as single questions never did. What a batch saves is the per-message
 * cost (a pipe write and a read, the framing, a wake-up of each process): at the spec's limits (a
 * lease under 2 tokens, so none) every take was one round trip.
 *
 * There is no synchronous `takeNow` here: the answer takes a round trip. The worker puts a
 * LeasingBucketStore in front (createRateLimiters, as over Redis), which leases batches of tokens
 * through `lease` and `giveBack` and answers most takes from its own memory, synchronously, where
 * the limits are fast enough to lease.
 */

/** The one method a worker asks: a list of operations, answered by a list of results in the same order. */
export const BATCH = 'ratelimit.batch';

/** Most operations one message carries; with 32 connections a busy tick asks a few dozen. */
export const DEFAULT_MAX_BATCH = 256;

/** One operation of a batch, as the worker sends it. */
export type StoreOp =
  | { op: 'take'; buckets: readonly BucketRef[]; cost: number }
  | { op: 'lease'; buckets: readonly BucketRef[]; want: number; least: number }
  | { op: 'giveBack'; buckets: readonly BucketRef[]; tokens: number }
  | { op: 'pause'; buckets: readonly BucketRef[]; durationMs: number };

/** One operation's result: its value (absent for give-backs and pauses), or why it failed. */
export type OpAnswer = { value?: unknown } | { error: string };

export interface IpcBucketStoreOptions {
  /** A primary silent this long counts as a failure (the failure policy around this store decides). Default 2 s. */
  timeoutMs?: number;
  /** Most operations in one message (default DEFAULT_MAX_BATCH). */
  maxBatch?: number;
}

interface Queued {
  op: StoreOp;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export class IpcBucketStore implements LeaseSource {
  private readonly timeoutMs: number;
  private readonly maxBatch: number;
  private queued: Queued[] = [];
  private flushing: NodeJS.Immediate | undefined;

  constructor(
    private readonly rpc: IpcRpcClient,
    options: IpcBucketStoreOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 2_000;
    this.maxBatch = Math.max(1, options.maxBatch ?? DEFAULT_MAX_BATCH);
  }

  take(buckets: readonly BucketRef[], cost = 1): Promise<TakeOutcome> {
    return this.ask<TakeOutcome>({ op: 'take', buckets, cost });
  }

  lease(buckets: readonly BucketRef[], want: number, least: number): Promise<Lease> {
    return this.ask<Lease>({ op: 'lease', buckets, want, least });
  }

  async giveBack(buckets: readonly BucketRef[], tokens: number): Promise<void> {
    await this.ask({ op: 'giveBack', buckets, tokens });
  }

  async pause(buckets: readonly BucketRef[], durationMs: number): Promise<void> {
    await this.ask({ op: 'pause', buckets, durationMs });
  }

  /** The buckets belong to the primary: nothing to free here (the channel is the worker's). What is queued is still sent. */
  async close(): Promise<void> {}

  /** Queue one operation for this turn's message; a full batch goes at once. */
  private ask<T>(op: StoreOp): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queued.push({ op, resolve, reject });
      if (this.queued.length >= this.maxBatch) this.flush();
      else this.flushing ??= setImmediate(() => this.flush());
    });
  }

  /** Send what is queued as one message and settle each operation from its own answer. */
  private flush(): void {
    if (this.flushing) clearImmediate(this.flushing);
    this.flushing = undefined;
    const batch = this.queued;
    this.queued = [];
    if (batch.length === 0) return;
    this.rpc
      .call<OpAnswer[]>(
        BATCH,
        batch.map((q) => q.op),
        this.timeoutMs,
      )
      .then(
        (answers) => {
          if (!Array.isArray(answers) || answers.length !== batch.length) {
            const error = new IpcRpcError(
              `${BATCH}: ${batch.length} operations, answered ${Array.isArray(answers) ? answers.length : 'no list'}`,
            );
            for (const q of batch) q.reject(error);
            return;
          }
          batch.forEach((q, i) => {
            const answer = answers[i]!;
            if ('error' in answer) q.reject(new IpcRpcError(answer.error));
            else q.resolve(answer.value);
          });
        },
        (error: Error) => {
          for (const q of batch) q.reject(error);
        },
      );
  }
}

/**
 * The primary's side: answers each worker's batches from one in-memory store. Every operation of a
 * batch is started in order before anything is awaited, and MemoryBucketStore changes its buckets
 * before it returns (it never waits), so a batch is applied whole and in order before the next
 * message is read: no other worker's operation lands between two of its operations. A batch of
 * takes and leases only (the hot path) is answered synchronously, without a promise per operation.
 */
export function bucketStoreHandlers(store: MemoryBucketStore): RpcHandlers {
  return {
    [BATCH]: (ops: StoreOp[]) => {
      const answers: OpAnswer[] = [];
      const waits: Promise<void>[] = [];
      ops.forEach((op, i) => {
        const answer = answerOf(store, op);
        if (answer instanceof Promise) waits.push(answer.then((settled) => void (answers[i] = settled)));
        else answers[i] = answer;
      });
      return waits.length > 0 ? Promise.all(waits).then(() => answers) : answers;
    },
  };
}

/** One operation on the primary's store, as its answer (a promise for the store's asynchronous methods). */
function answerOf(store: MemoryBucketStore, op: StoreOp): OpAnswer | Promise<OpAnswer> {
  try {
    const result = run(store, op);
    if (result instanceof Promise)
      return result.then(
        () => ({}),
        (error: Error) => ({ error: error.message }),
      );
    return { value: result };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function run(store: MemoryBucketStore, op: StoreOp): TakeOutcome | Lease | Promise<void> {
  switch (op.op) {
    case 'take':
      return store.takeNow(op.buckets, op.cost);
    case 'lease':
      return store.leaseNow(op.buckets, op.want, op.least);
    case 'giveBack':
      return store.giveBack(op.buckets, op.tokens);
    case 'pause':
      return store.pause(op.buckets, op.durationMs);
    default:
      throw new Error(`unknown operation ${(op as { op: unknown }).op as string}`);
  }
}
