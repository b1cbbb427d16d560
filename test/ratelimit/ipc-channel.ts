import { EventEmitter } from 'node:events';
import { BATCH, IpcBucketStore, bucketStoreHandlers, type IpcBucketStoreOptions, type StoreOp } from '../../src/ratelimit/ipc-store.js';
import type { MemoryBucketStore } from '../../src/ratelimit/memory-store.js';
import { IpcRpcClient, serveRpc, type IpcEndpoint, type RpcHandlers } from '../../src/shared/ipc-rpc.js';

/** Both ends of an IPC channel in one process; messages cross asynchronously and as JSON, as over a pipe. */
export function channelPair(): [IpcEndpoint, IpcEndpoint] {
  const a = new EventEmitter();
  const b = new EventEmitter();
  const end = (self: EventEmitter, other: EventEmitter): IpcEndpoint => ({
    send: (message) => {
      const copy: unknown = JSON.parse(JSON.stringify(message));
      setImmediate(() => other.emit('message', copy));
      return true;
    },
    on: (event, listener) => self.on(event, listener),
    off: (event, listener) => self.off(event, listener),
  });
  return [end(a, b), end(b, a)];
}

/** What a primary was asked by one worker: each message's operations, in the order they came. */
export interface AskedOfPrimary {
  /** Operations per kind (`take`, `lease`, `giveBack`, `pause`), over every message. */
  ops: Record<string, number>;
  /** Each message's number of operations. */
  messages: number[];
}

/**
 * A cluster worker's IpcBucketStore, answered by `primary` (the primary's buckets) over a channel
 * of its own, as each worker has; `asked` counts what it asked, message by message.
 */
export function ipcWorkerOf(
  primary: MemoryBucketStore,
  options: IpcBucketStoreOptions = {},
): { store: IpcBucketStore; asked: AskedOfPrimary } {
  const [workerEnd, primaryEnd] = channelPair();
  const asked: AskedOfPrimary = { ops: {}, messages: [] };
  const handlers = bucketStoreHandlers(primary);
  const answer = handlers[BATCH]!;
  serveRpc(primaryEnd, {
    [BATCH]: (ops: never) => {
      const list = ops as StoreOp[];
      asked.messages.push(list.length);
      for (const { op } of list) asked.ops[op] = (asked.ops[op] ?? 0) + 1;
      return answer(ops);
    },
  } satisfies RpcHandlers);
  return { store: new IpcBucketStore(new IpcRpcClient(workerEnd), options), asked };
}
