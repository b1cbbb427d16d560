import { EventEmitter } from 'node:events';
import { IpcBucketStore, bucketStoreHandlers } from '../../src/ratelimit/ipc-store.js';
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

/**
 * A cluster worker's IpcBucketStore, answered by `primary` (the primary's buckets) over a channel
 * of its own, as each worker has; `calls` counts the questions it asked, by name.
 */
export function ipcWorkerOf(primary: MemoryBucketStore): { store: IpcBucketStore; calls: Record<string, number> } {
  const [workerEnd, primaryEnd] = channelPair();
  const calls: Record<string, number> = {};
  const counted: RpcHandlers = {};
  for (const [name, handler] of Object.entries(bucketStoreHandlers(primary))) {
    counted[name] = (args: never) => {
      calls[name] = (calls[name] ?? 0) + 1;
      return handler(args);
    };
  }
  serveRpc(primaryEnd, counted);
  return { store: new IpcBucketStore(new IpcRpcClient(workerEnd)), calls };
}
