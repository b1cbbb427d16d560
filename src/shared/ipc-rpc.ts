/**
 * Request/answer over a Node IPC channel (a cluster worker and its primary). Messages are plain
 * objects tagged `v1gate:rpc` / `v1gate:rpc-answer`, so they live beside other users of the
 * channel (cluster's own messages, prom-client's) without interfering.
 */

export interface IpcEndpoint {
  // Node types its IPC messages as `any` (process, cluster.Worker); each side's listener reads the
  // one message shape it expects and checks its `type` before trusting it.
  /* eslint-disable @typescript-eslint/no-explicit-any */
  send?(message: unknown, ...rest: any[]): boolean;
  on(event: 'message', listener: (message: any) => void): unknown;
  off(event: 'message', listener: (message: any) => void): unknown;
  /* eslint-enable @typescript-eslint/no-explicit-any */
}

interface RpcRequest {
  type: 'v1gate:rpc';
  id: number;
  method: string;
  args: unknown;
}

interface RpcAnswer {
  type: 'v1gate:rpc-answer';
  id: number;
  result?: unknown;
  error?: string;
}

export class IpcRpcError extends Error {
  override readonly name = 'IpcRpcError';
}

/** The asking side (a worker): `call` resolves with the other side's answer. */
export class IpcRpcClient {
  private nextId = 0;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void; timer: NodeJS.Timeout }>();
  private readonly onMessage = (message: RpcAnswer) => {
    if (message?.type !== 'v1gate:rpc-answer') return;
    const waiter = this.pending.get(message.id);
    if (!waiter) return; // answered after its timeout
    this.pending.delete(message.id);
    clearTimeout(waiter.timer);
    if (message.error !== undefined) waiter.reject(new IpcRpcError(message.error));
    else waiter.resolve(message.result);
  };

  constructor(private readonly channel: IpcEndpoint) {
    channel.on('message', this.onMessage);
  }

  call<T>(method: string, args: unknown, timeoutMs: number): Promise<T> {
    const send = this.channel.send;
    if (!send) return Promise.reject(new IpcRpcError('no IPC channel (not a cluster worker)'));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      // unref: a pending question must not be what keeps a closing worker alive.
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new IpcRpcError(`${method}: no answer within ${timeoutMs} ms`));
      }, timeoutMs).unref();
      this.pending.set(id, { resolve: resolve, reject, timer });
      const request: RpcRequest = { type: 'v1gate:rpc', id, method, args };
      const failed = (error: Error | null) => {
        if (!error || !this.pending.delete(id)) return;
        clearTimeout(timer);
        reject(new IpcRpcError(`${method}: ${error.message}`));
      };
      try {
        // With a callback, a channel that breaks as the question is written fails this call; without
        // one, Node emits the failure as an 'error' event on the process, which ends it.
        send.call(this.channel, request, failed);
      } catch (error) {
        failed(error as Error);
      }
    });
  }

  close(): void {
    this.channel.off('message', this.onMessage);
    for (const [id, waiter] of this.pending) {
      clearTimeout(waiter.timer);
      waiter.reject(new IpcRpcError('IPC channel closed'));
      this.pending.delete(id);
    }
  }
}

/** Handlers take the arguments their callers send (checked by whoever registers them, not here). */
export type RpcHandlers = Record<string, (args: never) => unknown>;

/** The answering side (the primary, once per worker): runs the named handler and sends back its result. */
export function serveRpc(channel: IpcEndpoint, handlers: RpcHandlers): () => void {
  const onMessage = (message: RpcRequest) => {
    if (message?.type !== 'v1gate:rpc') return;
    const reply = (answer: Omit<RpcAnswer, 'type' | 'id'>) => {
      // The worker may be gone (crashed, exiting): its question dies with it. A channel that breaks
      // as the answer is written (EPIPE, a worker that died while its answer was being made) fails
      // the send later, and without a callback Node emits that as an 'error' event on the worker,
      // which nothing listens to: the primary, and with it the whole cluster, ended.
      try {
        channel.send?.({ type: 'v1gate:rpc-answer', id: message.id, ...answer }, ignoreSendFailure);
      } catch {
        /* channel closed */
      }
    };
    const handler = handlers[message.method];
    if (!handler) return reply({ error: `unknown method ${message.method}` });
    try {
      const result = handler(message.args as never);
      if (result instanceof Promise)
        result.then(
          (value) => reply({ result: value }),
          (error: Error) => reply({ error: error.message }),
        );
      else reply({ result });
    } catch (error) {
      reply({ error: (error as Error).message });
    }
  };
  channel.on('message', onMessage);
  return () => channel.off('message', onMessage);
}

/** A send's failure, taken so that Node does not emit it as an 'error' event: the worker it was for is gone. */
const ignoreSendFailure = () => {};
