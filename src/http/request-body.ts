import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import {
  BodyReadError,
  busy,
  DEFAULT_BUDGET,
  pooledGrowth,
  tooLarge,
  tooSlow,
  type BodyLimits,
  type RequestBudget,
} from './body-budget.js';
import { connectionIfAny, connectionOf, requestIfAny, requestOf, type RequestState } from './transport-state.js';

// The body reader's vocabulary, for the ways in that read bodies through it and the settings.
export { BodyReadError, BUFFERED_BODIES_PER_BODY, DEFAULT_BUDGET, tooLarge, type BodyLimits } from './body-budget.js';

/**
 * The one reader of request bodies, for every route of every server (the v1 facade, the SDK
 * signer, the webhook intake, the cluster forward, the embedded sandbox), with the budget the
 * server that accepted the request gives it (src/http/server.ts):
 * - a body whose Content-Length is over `maxBytes` is refused before a byte of it is kept; a
 *   chunked one the moment it passes `maxBytes`;
 * - a body that stalls for `idleTimeoutMs` fails as incomplete (a client that counted characters,
 *   not bytes, or one that only writes its body on a fresh connection);
 * - a body still arriving when the request's deadline passes (`V1_REQUEST_TIMEOUT_MS`, counted by
 *   Node from the request's first byte; the server passes it on here) fails as too slow;
 * - a connection whose bytes the server had to cut (past its Content-Length, or an HTTP/1.0 body
 *   without one that was too large or too slow) fails with what the server found;
 * - all the bodies one server holds at once are bounded too (its BodyPool, V1_MAX_BUFFERED_BYTES):
 *   past each body's first FREE_BODY_BYTES, every byte kept is taken from the pool until the
 *   request's answer has gone, and a body the pool cannot take fails as busy.
 * Every failure is a BodyReadError, which each route answers in its own error format; through a
 * Hono context the answer also closes the connection, whose bytes can no longer be trusted.
 */

/** The server gives each request it accepts its budget (one object per server, shared by its requests). */
export function setRequestBudget(incoming: IncomingMessage, budget: RequestBudget): void {
  requestOf(incoming).budget = budget;
}

/** The request's answer has gone (its response closed): what its body held of the pool is given back. */
export function releaseBody(incoming: IncomingMessage): void {
  const request = requestIfAny(incoming);
  if (!request?.pooled) return;
  const held = request.pooled;
  request.pooled = 0;
  request.budget?.bodies?.give(held);
}

export function budgetOf(incoming: IncomingMessage | undefined): RequestBudget {
  return requestIfAny(incoming)?.budget ?? DEFAULT_BUDGET;
}

/** The server found the request's deadline passed with its body still arriving: its reader fails now, or as soon as one starts. */
export function passRequestDeadline(incoming: IncomingMessage): void {
  const request = requestOf(incoming);
  request.deadlinePassed = true;
  request.onDeadline?.();
}

/** The server cut this connection's body (the stream Node's parser reads it from): the route answers `error` instead of reading. */
export function cutBody(stream: object, error: BodyReadError): void {
  connectionOf(stream).bodyCut ??= error;
}

function cutOf(incoming: IncomingMessage): BodyReadError | undefined {
  return connectionIfAny(incoming.socket)?.bodyCut;
}

/**
 * The limits last made for a server's budget and a route's own, and the route's values they were
 * made from: a route hands the same limits on every call, so its tightened budget is made once,
 * not spread into a new object per body. The values are compared, not only the objects, so a
 * route that changed its limits gets new ones.
 */
let tightened:
  { budget: RequestBudget; route: Partial<BodyLimits>; maxBytes?: number; idleTimeoutMs?: number; limits: RequestBudget } | undefined;

/** The limits a read works to: the server's budget, tightened (never loosened) by the route's own. */
function limitsFor(budget: RequestBudget | undefined, route: Partial<BodyLimits> | undefined): RequestBudget {
  if (!budget) return { ...DEFAULT_BUDGET, ...route };
  if (!route) return budget;
  const last = tightened;
  if (last?.budget === budget && last.route === route && last.maxBytes === route.maxBytes && last.idleTimeoutMs === route.idleTimeoutMs) {
    return last.limits;
  }
  const limits = {
    ...budget,
    maxBytes: Math.min(budget.maxBytes, route.maxBytes ?? Infinity),
    idleTimeoutMs: Math.min(budget.idleTimeoutMs, route.idleTimeoutMs ?? Infinity),
  };
  tightened = { budget, route, maxBytes: route.maxBytes, idleTimeoutMs: route.idleTimeoutMs, limits };
  return limits;
}

/**
 * A body that cannot be read ends its connection after the answer, whose bytes can no longer be
 * trusted: said on Node's response (when there is one and its headers have not gone) as the body is
 * refused, before the route answers.
 */
function closing(error: BodyReadError, outgoing: ServerResponse | undefined): BodyReadError {
  if (outgoing && !outgoing.headersSent) outgoing.setHeader('connection', 'close');
  return error;
}

/**
 * The body of a Node request, within its budget and the route's limits. `outgoing`: its response,
 * told to close the connection when the body is refused (a Hono route's, through `readBody`).
 */
export function readRawBody(incoming: IncomingMessage, route?: Partial<BodyLimits>, outgoing?: ServerResponse): Promise<Buffer> {
  const request = requestOf(incoming);
  const limits = limitsFor(request.budget, route);
  const cut = cutOf(incoming);
  if (cut) return Promise.reject(closing(cut, outgoing));
  if (request.deadlinePassed) return Promise.reject(closing(tooSlow(limits.requestTimeoutMs), outgoing));
  const announced = Number(incoming.headers['content-length'] ?? NaN);
  if (announced > limits.maxBytes) {
    return drain(incoming, request, limits).then(() => Promise.reject(closing(tooLarge(limits.maxBytes), outgoing)));
  }
  if (limits.bodies && Number.isFinite(announced) && !limits.bodies.fits(announced)) {
    return drain(incoming, request, limits).then(() => Promise.reject(closing(busy(limits.bodies!), outgoing)));
  }
  if (incoming.readableEnded || announced === 0) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => new BodyRead(incoming, request, limits, announced, outgoing, resolve, reject).start());
}

/** What @hono/node-server hands each request: Node's own request and response (absent under `app.request`). */
type NodeBindings = { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined;

/** The budget of the request a Hono route is answering. */
export function requestBudget(c: Context): RequestBudget {
  return budgetOf((c.env as NodeBindings)?.incoming);
}

/**
 * The body of a request to a Hono route: read from the Node request where there is one, else from
 * the web Request (a test's `app.request`), to the same limits. A refused body closes the
 * connection after the route's answer.
 */
export function readBody(c: Context, route?: Partial<BodyLimits>): Promise<Buffer> {
  const env = c.env as NodeBindings;
  const incoming = env?.incoming;
  // The reader's own promise, handed on: an async function around it cost a promise and a turn per call.
  return incoming ? readRawBody(incoming, route, env.outgoing) : readWebBody(c, route);
}

async function readWebBody(c: Context, route: Partial<BodyLimits> | undefined): Promise<Buffer> {
  const limits = { ...DEFAULT_BUDGET, ...route };
  const bytes = Buffer.from(await c.req.arrayBuffer());
  if (bytes.length > limits.maxBytes) throw tooLarge(limits.maxBytes);
  return bytes;
}

/**
 * Middleware for routes that read their body through Hono (`c.req.json()`, `parseBody()`): the
 * body is read first by the one reader, and Hono's own body methods read that copy.
 */
export const bodyReadFirst: MiddlewareHandler = async (c, next) => {
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
    const body = await readBody(c);
    const copy = body.buffer.slice(body.byteOffset, body.byteOffset + body.length) as ArrayBuffer;
    // Hono keeps promises in its body cache (its own reads store `raw.arrayBuffer()` there) and
    // makes json, text and formData from whichever one it holds; its type names the settled value.
    c.req.bodyCache.arrayBuffer = Promise.resolve(copy) as unknown as ArrayBuffer;
  }
  await next();
};

/**
 * The reads in progress, each looked at every IDLE_SWEEP_MS for its idle window: one interval for
 * all of them rather than a timer per body, whose setting and clearing was ~0.6% of a checkemail
 * call's CPU at 2,500 calls/s (most bodies end within the tick their read starts in). The
 * interval stops on the first sweep that finds no read, so a quiet process holds none.
 */
const IDLE_SWEEP_MS = 100;
const reading = new Set<BodyRead>();
let sweeper: NodeJS.Timeout | undefined;

function watchIdle(read: BodyRead): void {
  reading.add(read);
  sweeper ??= setInterval(sweepIdle, IDLE_SWEEP_MS).unref();
}

function sweepIdle(): void {
  if (reading.size === 0) {
    clearInterval(sweeper);
    sweeper = undefined;
    return;
  }
  const now = Date.now();
  for (const read of reading) read.idleAt(now);
}

/**
 * One body being read. Its idle limit costs no timer of its own: each chunk only notes its
 * arrival time, and the sweep above fails the read once nothing arrived for `idleTimeoutMs`.
 */
class BodyRead {
  private readonly chunks: Buffer[] = [];
  private received = 0;
  private lastChunkAt = Date.now();
  // Bound once: the same functions are added and removed as listeners.
  private readonly onData = (chunk: Buffer) => this.data(chunk);
  private readonly onEnd = () => this.end();
  private readonly onAborted = () => this.fail(new BodyReadError('aborted', 'The client went away before sending the whole body.'));
  private readonly onDeadline = () => this.fail(tooSlow(this.limits.requestTimeoutMs));

  constructor(
    private readonly incoming: IncomingMessage,
    private readonly request: RequestState,
    private readonly limits: RequestBudget,
    private readonly announced: number,
    private readonly outgoing: ServerResponse | undefined,
    private readonly resolve: (body: Buffer) => void,
    private readonly settleRefused: (error: BodyReadError) => void,
  ) {}

  private reject(error: BodyReadError): void {
    this.settleRefused(closing(error, this.outgoing));
  }

  start(): void {
    // `on`, not `once`: each of these fires at most once before cleanup takes them all off, and
    // `once` made a wrapper (a state object and a bound function) per listener per body.
    this.incoming.on('data', this.onData);
    this.incoming.on('end', this.onEnd);
    this.incoming.on('aborted', this.onAborted);
    this.incoming.on('error', this.onAborted);
    this.request.onDeadline = this.onDeadline;
    watchIdle(this);
  }

  private data(chunk: Buffer): void {
    const before = this.received;
    this.received += chunk.length;
    if (this.received > this.limits.maxBytes) return this.refuse(tooLarge(this.limits.maxBytes));
    const pool = this.limits.bodies;
    const growth = pooledGrowth(before, this.received);
    if (pool && growth > 0) {
      if (!pool.take(growth)) return this.refuse(busy(pool));
      this.request.pooled += growth;
    }
    this.chunks.push(chunk);
    this.lastChunkAt = Date.now();
  }

  /** Nothing more is kept: what was read is let go (its pool bytes given back) before the rest is thrown away. */
  private refuse(error: BodyReadError): void {
    this.cleanup();
    this.chunks.length = 0;
    releaseBody(this.incoming);
    void drain(this.incoming, this.request, this.limits).then(() => this.reject(error));
  }

  private end(): void {
    this.cleanup();
    // The server saw bytes past Content-Length (a client that counted characters, not bytes):
    // what was read is a truncated body, refused rather than acted on in part.
    const cut = cutOf(this.incoming);
    if (cut) {
      this.chunks.length = 0;
      releaseBody(this.incoming);
      return this.reject(cut);
    }
    this.resolve(this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks));
  }

  /** The sweep's look at this read: failed once nothing arrived for its idle window. */
  idleAt(now: number): void {
    if (now - this.lastChunkAt < this.limits.idleTimeoutMs) return;
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
    this.chunks.length = 0;
    releaseBody(this.incoming);
    this.incoming.pause();
    this.reject(error);
  }

  private cleanup(): void {
    reading.delete(this);
    this.incoming.off('data', this.onData);
    this.incoming.off('end', this.onEnd);
    this.incoming.off('aborted', this.onAborted);
    this.incoming.off('error', this.onAborted);
    if (this.request.onDeadline === this.onDeadline) this.request.onDeadline = undefined;
  }
}

/**
 * Read and throw away the rest of a body too large to take, before it is answered: a client still
 * sending when the connection closes gets a reset instead of the error. Nothing is kept, and the
 * throwing away is bounded: past `4 × maxBytes` (at least 16 MiB), an idle window or the request's
 * deadline, the answer goes out anyway and the connection closes.
 */
function drain(incoming: IncomingMessage, request: RequestState, limits: BodyLimits): Promise<void> {
  const limitBytes = Math.max(4 * limits.maxBytes, 16 * 1024 * 1024);
  return new Promise((resolve) => {
    if (incoming.readableEnded || request.deadlinePassed) return resolve();
    let seen = 0;
    let timer: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(timer);
      incoming.off('data', onData);
      incoming.off('end', done);
      incoming.off('aborted', done);
      incoming.off('error', done);
      if (request.onDeadline === done) request.onDeadline = undefined;
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
    request.onDeadline = done;
    arm();
    incoming.resume();
  });
}
