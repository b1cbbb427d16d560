import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { IpcRpcClient, serveRpc, type IpcEndpoint } from '../shared/ipc-rpc.js';
import { IpcBucketStore, bucketStoreHandlers } from './ipc-store.js';
import { MemoryBucketStore } from './memory-store.js';
import type { BucketRef } from './bucket-store.js';

/** Both ends of an IPC channel in one process; messages cross asynchronously and as JSON, as over a pipe. */
function channelPair(): [IpcEndpoint, IpcEndpoint] {
  const a = new EventEmitter();
  const b = new EventEmitter();
  const end = (self: EventEmitter, other: EventEmitter): IpcEndpoint => ({
    send: (message) => {
      const copy = JSON.parse(JSON.stringify(message));
      setImmediate(() => other.emit('message', copy));
      return true;
    },
    on: (event, listener) => self.on(event, listener),
    off: (event, listener) => self.off(event, listener),
  });
  return [end(a, b), end(b, a)];
}

const refs: BucketRef[] = [{ key: 'in:{k:general}:second', spec: { ratePerSecond: 0.001, burst: 5 } }];

describe('IpcBucketStore', () => {
  it("two workers taking at once from the primary's store admit the burst exactly, not twice", async () => {
    const primaryStore = new MemoryBucketStore();
    const workers = [0, 1].map(() => {
      const [workerEnd, primaryEnd] = channelPair();
      serveRpc(primaryEnd, bucketStoreHandlers(primaryStore));
      return new IpcBucketStore(new IpcRpcClient(workerEnd));
    });
    const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => workers[i % 2]!.take(refs)));
    expect(outcomes.filter((o) => o.allowed)).toHaveLength(5);
    expect(outcomes.find((o) => !o.allowed)!.retryAfterMs).toBeGreaterThan(0);
  });

  it("a pause from one worker refuses the other's takes", async () => {
    const primaryStore = new MemoryBucketStore();
    const [w1, p1] = channelPair();
    const [w2, p2] = channelPair();
    serveRpc(p1, bucketStoreHandlers(primaryStore));
    serveRpc(p2, bucketStoreHandlers(primaryStore));
    await new IpcBucketStore(new IpcRpcClient(w1)).pause(refs, 5_000);
    expect((await new IpcBucketStore(new IpcRpcClient(w2)).take(refs)).allowed).toBe(false);
  });

  it('rejects when the primary does not answer in time (the failure policy then decides)', async () => {
    const [workerEnd] = channelPair();
    await expect(new IpcBucketStore(new IpcRpcClient(workerEnd), 50).take(refs)).rejects.toThrow(/no answer within 50 ms/);
  });
});
