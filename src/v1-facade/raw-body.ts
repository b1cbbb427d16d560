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
  constructor(
    readonly problem: BodyProblem,
    message: string,
  ) {
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
    return drain(incoming, limits).then(() => Promise.reject(tooLarge(limits.maxBytes)));
  }
  if (incoming.readableEnded || announced === 0) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => new BodyRead(incoming, limits, announced, resolve, reject).start());
}

/**
 * One body being read. The idle limit is ONE timer per body, not one per chunk: each chunk only
 * notes its arrival time, and when the timer fires it either fails the read (nothing arrived for
 * `idleTimeoutMs`) or sleeps again for what is left of the idle window since the last chunk.
 */
class BodyRead {
  private readonly chunks: Buffer[] = [];
  private received = 0;
  private lastChunkAt = Date.now();
  private timer: NodeJS.Timeout | undefined;
  // Bound once: the same functions are added and removed as listeners.
  private readonly onData = (chunk: Buffer) => this.data(chunk);
  private readonly onEnd = () => this.end();
  private readonly onAborted = () => this.fail(new BodyReadError('aborted', 'The client went away before sending the whole body.'));
  private readonly onIdle = () => this.idle();

  constructor(
    private readonly incoming: IncomingMessage,
    private readonly limits: BodyLimits,
    private readonly announced: number,
    private readonly resolve: (body: Buffer) => void,
    private readonly reject: (error: BodyReadError) => void,
  ) {}

  start(): void {
    this.incoming.on('data', this.onData);
    this.incoming.once('end', this.onEnd);
    this.incoming.once('aborted', this.onAborted);
    this.incoming.once('error', this.onAborted);
    this.timer = setTimeout(this.onIdle, this.limits.idleTimeoutMs);
  }

  private data(chunk: Buffer): void {
    this.received += chunk.length;
    if (this.received > this.limits.maxBytes) {
      this.cleanup();
      void drain(this.incoming, this.limits).then(() => this.reject(tooLarge(this.limits.maxBytes)));
      return;
    }
    this.chunks.push(chunk);
    this.lastChunkAt = Date.now();
  }

  private end(): void {
    this.cleanup();
    this.resolve(this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks));
  }

  private idle(): void {
    const leftMs = this.lastChunkAt + this.limits.idleTimeoutMs - Date.now();
    if (leftMs > 0) {
      this.timer = setTimeout(this.onIdle, leftMs);
      return;
    }
    this.fail(
      new BodyReadError(
        'incomplete',
        Number.isFinite(this.announced)
          ? `The request body ended after ${this.received} of the ${this.announced} bytes its Content-Length announced. Count Content-Length in bytes, not characters.`
          : 'The request body stopped arriving before it was complete.',
      ),
    );
  }

  private fail(error: BodyReadError): void {
    this.cleanup();
    this.incoming.pause();
    this.reject(error);
  }

  private cleanup(): void {
    clearTimeout(this.timer);
    this.incoming.off('data', this.onData);
    this.incoming.off('end', this.onEnd);
    this.incoming.off('aborted', this.onAborted);
    this.incoming.off('error', this.onAborted);
  }
}

/**
 * Read and throw away the rest of a body too large to take, before it is answered: a client still
 * sending when the connection closes gets a reset instead of the v1 error. Bounded: past
 * `4 × maxBytes` (at least 16 MiB) or an idle window, the answer goes out anyway and the
 * connection closes.
 */
function drain(incoming: IncomingMessage, limits: BodyLimits): Promise<void> {
  const limitBytes = Math.max(4 * limits.maxBytes, 16 * 1024 * 1024);
  return new Promise((resolve) => {
    if (incoming.readableEnded) return resolve();
    let seen = 0;
    let timer: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(timer);
      incoming.off('data', onData);
      incoming.off('end', done);
      incoming.off('aborted', done);
      incoming.off('error', done);
      resolve();
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(done, limits.idleTimeoutMs);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limitBytes) done();
      else arm();
    };
    incoming.on('data', onData);
    incoming.once('end', done);
    incoming.once('aborted', done);
    incoming.once('error', done);
    arm();
    incoming.resume();
  });
}

function tooLarge(maxBytes: number): BodyReadError {
  return new BodyReadError('too-large', `The request body is larger than the ${maxBytes} bytes v1gate accepts.`);
}
