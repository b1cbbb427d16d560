import { EventEmitter } from 'node:events';
import type { IpcEndpoint } from '../../src/shared/ipc-rpc.js';

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
