import type { IncomingMessage } from 'node:http';

/**
 * Reads a request body straight from the Node socket, with the limits legacy clients need:
 * a body larger than `maxBytes` is refused without reading it all; a body that stops arriving
 * before its announced Content-Length (a client that counted characters, not bytes, or one that
 * only writes its body on a fresh connection) fails after `idleTimeoutMs` instead of hanging.
 */

export type BodyProblem = 'too-large' | 'incomplete' | 'aborted';

export class BodyReadError extends Error {
  override readonly name = 'BodyReadError';
  constructor(readonly problem: BodyProblem, message: string) {
    super(message);
  }
}

export interface BodyLimits {
  maxBytes: number;
  idleTimeoutMs: number;
}

export function readRawBody(incoming: IncomingMessage, limits: BodyLimits): Promise<Buffer> {
  const announced = Number(incoming.headers['content-length'] ?? NaN);
  if (announced > limits.maxBytes) {
    return Promise.reject(tooLarge(limits.maxBytes));
  }
  if (incoming.readableEnded || announced === 0) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let timer: NodeJS.Timeout | undefined;
    const cleanup = () => {
      clearTimeout(timer);
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('aborted', onAborted);
      incoming.off('error', onAborted);
    };
    const fail = (error: BodyReadError) => {
      cleanup();
      incoming.pause();
      reject(error);
    };
    const armTimer = () => {
      clearTimeout(timer);
      timer = setTimeout(
        () =>
          fail(
            new BodyReadError(
              'incomplete',
              Number.isFinite(announced)
                ? `The request body ended after ${received} of the ${announced} bytes its Content-Length announced. Count Content-Length in bytes, not characters.`
                : 'The request body stopped arriving before it was complete.',
            ),
          ),
        limits.idleTimeoutMs,
      );
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limits.maxBytes) return fail(tooLarge(limits.maxBytes));
      chunks.push(chunk);
      armTimer();
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    };
    const onAborted = () => fail(new BodyReadError('aborted', 'The client went away before sending the whole body.'));
    incoming.on('data', onData);
    incoming.once('end', onEnd);
    incoming.once('aborted', onAborted);
    incoming.once('error', onAborted);
    armTimer();
  });
}

function tooLarge(maxBytes: number): BodyReadError {
  return new BodyReadError('too-large', `The request body is larger than the ${maxBytes} bytes v1gate accepts.`);
}
