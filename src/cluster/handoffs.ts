import type { Worker } from 'node:cluster';

/**
 * The connections the primary has handed to a worker and not yet seen taken. node:cluster's
 * round-robin scheduler accepts each connection in the primary, sends it to a worker with a
 * `newconn` message, and closes its own copy only when the worker acknowledges it: a worker that
 * dies before it answers leaves that copy open in the primary for good (the client waits forever,
 * the socket sits in CLOSE-WAIT once the client gives up). Node keeps no way to reach those copies,
 * so the worker's IPC channel is watched: each handle sent is noted, each acknowledgement clears
 * it, and what is still noted when the worker is gone is closed, which the client sees as a close.
 */

/** The cluster's internal message (lib/internal/cluster/utils.js, `sendHelper`): a command, a sequence number, an acknowledgement. */
interface ClusterMessage {
  cmd?: unknown;
  act?: unknown;
  seq?: unknown;
  ack?: unknown;
}

interface Closable {
  close(): unknown;
}

const CLUSTER_COMMAND = 'NODE_CLUSTER';

function isClusterMessage(message: unknown): message is ClusterMessage {
  return typeof message === 'object' && message !== null && (message as ClusterMessage).cmd === CLUSTER_COMMAND;
}

/**
 * Watches `worker`'s channel for connections handed to it; returns a function that closes those
 * it never took (to be called once the worker is gone) and says how many there were. A handoff
 * (node:cluster sends it without a callback) to a worker whose channel broke as it was written, its
 * death not yet seen, fails as an 'error' event on the worker, which would end the primary with
 * nothing listening: `failed` is told instead, and the worker's exit is what the primary acts on.
 */
export function watchHandoffs(worker: Worker, failed: (error: Error) => void): () => number {
  worker.on('error', failed);
  const handed = new Map<unknown, Closable>();
  const child = worker.process;
  const send = child.send.bind(child) as (...args: unknown[]) => boolean;
  (child as { send: (...args: unknown[]) => boolean }).send = (message: unknown, handle?: unknown, ...rest: unknown[]) => {
    if (isClusterMessage(message) && message.act === 'newconn' && isClosable(handle)) handed.set(message.seq, handle);
    return send(message, handle, ...rest);
  };
  child.on('internalMessage', (message: unknown) => {
    if (isClusterMessage(message) && message.ack !== undefined) handed.delete(message.ack);
  });
  return () => {
    const left = [...handed.values()];
    handed.clear();
    for (const handle of left) handle.close();
    return left.length;
  };
}

function isClosable(handle: unknown): handle is Closable {
  return typeof handle === 'object' && handle !== null && typeof (handle as Closable).close === 'function';
}
