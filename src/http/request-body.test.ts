import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BodyPool, BodyReadError, FREE_BODY_BYTES, type RequestBudget } from './body-budget.js';
import { readRawBody, releaseBody, setRequestBudget } from './request-body.js';

/**
 * The body reader over a real Node server on loopback: bodies read at once share one idle sweep,
 * never a timer each; a body still arriving (or chunked) is read whole, a stalled one fails as
 * incomplete once its idle window has passed, and the connection serves the next request.
 */

interface Seen {
  body: string;
  /** Timers readRawBody set: at most the one sweep, for all the reads in progress. */
  timers: number;
  endedAfterAnswer: boolean;
  /** The pool's bytes in use once the body was read. */
  pooled: number;
}

const pool = new BodyPool(1024 * 1024);
const budget: RequestBudget = { maxBytes: 64 * 1024, idleTimeoutMs: 500, requestTimeoutMs: 10_000, maxFields: 100, bodies: pool };
let server: Server;
let port: number;
const seen: Seen[] = [];
const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    setRequestBudget(req, budget);
    // A route asks for its body after at least one turn, as the app's middleware does.
    void Promise.resolve().then(async () => {
      const before = timers();
      const reading = readRawBody(req);
      const timersSet = timers() - before;
      try {
        const body = await reading;
        seen.push({ body: body.toString('latin1'), timers: timersSet, endedAfterAnswer: false, pooled: pool.inUse });
        releaseBody(req);
        res.end(`read ${body.length}`);
      } catch (error) {
        res.end(error instanceof BodyReadError ? error.problem : 'other');
      }
      const entry = seen.at(-1);
      res.once('close', () => entry && (entry.endedAfterAnswer = req.readableEnded));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Sends `parts` on one connection, pausing `pauseMs` between them, and collects what comes back until `answers` answers arrived. */
async function exchange(parts: string[], answers: number, pauseMs = 50): Promise<string[]> {
  const socket: Socket = connect(port, '127.0.0.1');
  let received = '';
  const done = new Promise<void>((resolve) =>
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if ((received.match(/HTTP\/1\.1 /g) ?? []).length >= answers && /\r\n\r\n[^\r\n]*(read \d+|[a-z-]+)$/.test(received)) resolve();
    }),
  );
  for (const [i, part] of parts.entries()) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    socket.write(part);
  }
  await done;
  socket.destroy();
  return [...received.matchAll(/\r\n\r\n(read \d+|[a-z-]+)(?=HTTP|$)/g)].map((m) => m[1]!);
}

const post = (body: string, headers = `Content-Length: ${Buffer.byteLength(body)}`) =>
  `POST /v1/user/get HTTP/1.1\r\nHost: x\r\n${headers}\r\n\r\n${body}`;

describe('readRawBody', () => {
  it('reads a body that arrived with its headers, and the connection serves the next request', async () => {
    seen.length = 0;
    const answers = await exchange([post('api_key=k&api_secret=s') + post('id=1')], 2);
    expect(answers).toEqual(['read 22', 'read 4']);
    expect(seen.map((s) => s.body)).toEqual(['api_key=k&api_secret=s', 'id=1']);
    expect(seen.every((s) => s.endedAfterAnswer)).toBe(true);
  });

  it('reads bodies still arriving, all of them watched by one sweep, never a timer each', async () => {
    seen.length = 0;
    const whole = post('api_key=k&api_secret=s');
    const answers = await Promise.all(Array.from({ length: 5 }, () => exchange([whole.slice(0, -5), whole.slice(-5)], 1)));
    expect(answers.flat()).toEqual(Array(5).fill('read 22'));
    expect(seen.map((s) => s.body)).toEqual(Array(5).fill('api_key=k&api_secret=s'));
    expect(seen.reduce((sum, s) => sum + s.timers, 0)).toBeLessThanOrEqual(1);
  });

  it('fails a body that stops arriving as incomplete, once its idle window has passed', async () => {
    const whole = post('api_key=k&api_secret=s');
    const started = Date.now();
    expect(await exchange([whole.slice(0, -5)], 1)).toEqual(['incomplete']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(budget.idleTimeoutMs);
  });

  it('reads a whole body larger than its free bytes as it arrives, taking its pool share', async () => {
    seen.length = 0;
    const body = 'x'.repeat(FREE_BODY_BYTES + 10);
    const answers = await exchange([post(body)], 1);
    expect(answers).toEqual([`read ${body.length}`]);
    expect(seen[0]!.pooled).toBe(10);
  });

  it('refuses a whole chunked body over the limit, as one still arriving', async () => {
    const body = 'y'.repeat(budget.maxBytes + 1);
    const chunked = `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
    expect(await exchange([post(chunked, 'Transfer-Encoding: chunked')], 1)).toEqual(['too-large']);
  });

  it('reads a chunked body sent in parts', async () => {
    const chunked = post('4\r\nid=1\r\n', 'Transfer-Encoding: chunked');
    expect(await exchange([chunked, '3\r\n&x=\r\n', '0\r\n\r\n'], 1)).toEqual(['read 7']);
  });
});
