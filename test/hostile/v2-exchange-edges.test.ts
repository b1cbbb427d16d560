import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningGateway } from '../../src/gateway.js';
import { UpstreamUnavailable } from '../../src/upstream/errors.js';
import { connectUpstream, dispatchExchange, type Exchanged, type Reading, type Upstream } from '../../src/upstream/exchange.js';
import { OwnTime } from '../../src/shared/own-time.js';
import { startFaultUpstream, startGatewayOver, type Fault, type FaultUpstream } from '../support/fault-upstream.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';
import { postV1 } from '../support/v1-form.js';
import { faultUserGet, healUpstream, noCloseWait } from '../support/v2-faults.js';
import { failOnUnhandled } from '../support/unhandled.js';

/**
 * The edges of undici's dispatch handler that the v2 exchange (src/upstream/exchange.ts) is: what
 * a v2 service can do to one request that the fault table of misbehaving-v2.test.ts does not (an
 * interim answer, an upgrade nobody asked for, a redirect, a body that never ends, fast or slow, an
 * answer just inside or just past the deadline), each driven through a v1 call of a gateway in this
 * process with one connection to v2, so a request whose connection slot were kept would leave the
 * next call waiting. Beside them, at the exchange itself, the edges no v1 call can place: a request
 * whose deadline passes while it waits for a connection, a deadline that passes after the answer
 * came, and an answer too long to be one string.
 *
 * Every process-level error is collected here as well as by vitest: an abandoned request's error
 * left unhandled, or thrown from a handler callback into undici's client, would end a gateway.
 */

failOnUnhandled();

const TIMEOUT_MS = 1_000;
const MAX_BODY_BYTES = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('v2 answers at the handler’s edges, through a v1 call (one connection to v2)', { timeout: 60_000 }, () => {
  let sandbox: RunningSandbox;
  let faults: FaultUpstream;
  let gateway: RunningGateway;
  let creds: { api_key: string; api_secret: string };

  beforeAll(async () => {
    sandbox = await startSandbox();
    faults = await startFaultUpstream(`${sandbox.url}/v2`);
    creds = { api_key: sandbox.sandbox.credentials.apiKey, api_secret: sandbox.sandbox.credentials.apiSecret };
    gateway = await startGatewayOver(faults.url, {
      UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS),
      UPSTREAM_CONNECTIONS: '1',
      UPSTREAM_MAX_BODY_BYTES: String(MAX_BODY_BYTES),
    });
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
    await faults?.close();
    await sandbox?.close();
  });

  async function userGet(): Promise<unknown> {
    const response = await postV1(gateway.url, '/user/get', { ...creds, id: sandbox.sandbox.master.ownerId });
    expect(response.status).toBe(200);
    return response.json();
  }

  /** After each edge: v2 well again, the owner served (the one connection slot given back), nothing left in CLOSE-WAIT. */
  async function servedAfter(): Promise<void> {
    healUpstream(faults);
    expect(await userGet()).toMatchObject({ id: sandbox.sandbox.master.ownerId });
    expect(await noCloseWait()).toBe(0);
  }

  const V1_ERROR = { error: { code: expect.any(Number), message: expect.stringMatching(/\w/) } };

  it.each<[string, Fault]>([
    ['an interim 102 Processing', { kind: 'informational', status: 102 }],
    ['an interim 103 Early Hints', { kind: 'informational', status: 103 }],
  ])('%s, then the answer: the answer, read whole', async (_name, fault) => {
    faultUserGet(faults, fault);
    expect(await userGet()).toMatchObject({ id: sandbox.sandbox.master.ownerId });
    expect(faults.seen.some((seen) => seen.fault === fault.kind)).toBe(true);
    await servedAfter();
  });

  it.each<[string, Fault]>([
    ['a 100 Continue nobody asked for', { kind: 'informational', status: 100 }],
    [
      'a 101 Switching Protocols nobody asked for (then the connection hangs)',
      { kind: 'raw', bytes: 'HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: upgrade\r\n\r\n', then: 'hang' },
    ],
    [
      'a chunked body reset halfway',
      {
        kind: 'raw',
        bytes: 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n5\r\n{"id"\r\n',
        then: 'reset',
      },
    ],
  ])('%s: a v1 error, the owner served after, no CLOSE-WAIT', async (_name, fault) => {
    faultUserGet(faults, fault);
    expect(await userGet()).toEqual(V1_ERROR);
    expect(faults.seen.some((seen) => seen.fault === fault.kind)).toBe(true);
    await servedAfter();
  });

  it.each([301, 302, 303, 307, 308])('a %i to an answer that would do: not followed, a v1 error', async (status) => {
    // The redirect names a path of the proxy's own: following it would be seen there.
    const location = `${faults.url}/redirected/users/me`;
    faultUserGet(faults, { kind: 'answer', status, body: '', headers: { location } });
    expect(await userGet()).toEqual(V1_ERROR);
    expect(faults.seen.some((seen) => seen.fault === 'answer')).toBe(true);
    expect(faults.seen.filter((seen) => seen.path.startsWith('/redirected'))).toEqual([]);
    await servedAfter();
  });

  it('a body that never ends, sent as fast as it is read: cut at UPSTREAM_MAX_BODY_BYTES, read no further', async () => {
    const sent = { bytes: 0 };
    faultUserGet(faults, { kind: 'endless-body', chunkBytes: 64 * 1024, everyMs: 0, sent });
    const answer = (await userGet()) as { error: { message: string } };
    expect(answer).toEqual(V1_ERROR);
    expect(answer.error.message).toMatch(/more than 1048576 bytes/);
    const tries = faults.seen.length;
    // Cut where the cap is met: what was sent beyond it is what the socket buffers held, each try.
    await sleep(200);
    expect(sent.bytes).toBeLessThan(tries * 8 * MAX_BODY_BYTES);
    const after = sent.bytes;
    await sleep(300);
    expect(sent.bytes, 'the endless body stopped once cut').toBe(after);
    await servedAfter();
  });

  it('a body that never ends, a chunk every 50 ms: cut at the deadline, a v1 timeout', async () => {
    const sent = { bytes: 0 };
    faultUserGet(faults, { kind: 'endless-body', chunkBytes: 1024, everyMs: 50, sent });
    const started = performance.now();
    const answer = (await userGet()) as { error: { message: string } };
    expect(answer).toEqual(V1_ERROR);
    expect(answer.error.message).toMatch(/did not answer in time/);
    expect(performance.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    await sleep(300);
    const after = sent.bytes;
    await sleep(300);
    expect(sent.bytes, 'the endless body stopped once cut').toBe(after);
    await servedAfter();
  });

  it('an answer just inside the deadline, then the deadline passes: the answer, and nothing after', async () => {
    faultUserGet(faults, { kind: 'delay', ms: TIMEOUT_MS / 2 });
    expect(await userGet()).toMatchObject({ id: sandbox.sandbox.master.ownerId });
    // Past where the deadline would have fired: a timer left behind would abort a request that is over.
    await sleep(TIMEOUT_MS);
    await servedAfter();
  });

  it('an answer that comes after the deadline: a v1 timeout, the late answer never read', async () => {
    faultUserGet(faults, { kind: 'delay', ms: TIMEOUT_MS * 1.5 });
    const answer = (await userGet()) as { error: { message: string } };
    expect(answer.error.message).toMatch(/did not answer in time/);
    // The late answer is written to a connection the gateway closed.
    await sleep(TIMEOUT_MS);
    await servedAfter();
  });
});

describe('the exchange itself', { timeout: 60_000 }, () => {
  let server: Server;
  let upstream: Upstream;
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  let answer: (req: IncomingMessage, res: ServerResponse) => void = () => undefined;

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(req.url ?? '');
      req.resume();
      answer(req, res);
    });
    server.on('connection', (socket) => (sockets.add(socket), socket.once('close', () => sockets.delete(socket))));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    upstream = connectUpstream(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`, 1, 30_000);
  });
  afterEach(() => {
    requests.length = 0;
  });
  afterAll(async () => {
    await upstream?.pool.destroy();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server?.close(resolve));
  });

  const reading = (maxBytes = MAX_BODY_BYTES): Reading & { ownTime: OwnTime } => ({
    maxBytes,
    mayHaveApplied: false,
    status: 0,
    ownTime: new OwnTime(),
  });
  /** One exchange as the v2 client makes it (dispatchExchange), its outcome told to a promise. */
  const get = (path: string, endsAt: number, read: Reading = reading()) =>
    new Promise<Exchanged>((answered, failed) =>
      dispatchExchange(upstream, { method: 'GET', path: `/v2${path}`, headers: {} }, endsAt, read, { answered, failed }),
    );

  it('a request whose deadline passes while it waits for the one connection fails then, and is never sent', async () => {
    answer = (req, res) => {
      if (req.url === '/v2/hang') return; // holds the only connection until its own deadline
      res.end('{"ok":true}');
    };
    const hanging = get('/hang', Date.now() + 1_500).catch((error: unknown) => error);
    while (requests.length === 0) await sleep(10);
    const queued = get('/queued', Date.now() + 200).catch((error: unknown) => error);
    const first = await Promise.race([hanging.then(() => 'hanging'), queued.then(() => 'queued')]);
    expect(first).toBe('queued');
    expect(await queued).toBeInstanceOf(UpstreamUnavailable);
    expect(((await queued) as UpstreamUnavailable).message).toMatch(/did not answer in time/);
    expect(await hanging).toBeInstanceOf(UpstreamUnavailable);
    // The connection freed by the hanging request's abort takes the queued one up, and drops it unsent.
    const next = await get('/next', Date.now() + 5_000);
    expect(next).toMatchObject({ statusCode: 200, text: '{"ok":true}' });
    expect(requests).toEqual(['/v2/hang', '/v2/next']);
  });

  it('a deadline that passes after the answer came does nothing: the connection is kept, the own-time wait ended once', async () => {
    answer = (_req, res) => res.end('{"ok":true}');
    const read = reading();
    const first = await get('/a', Date.now() + 100, read);
    expect(first).toMatchObject({ statusCode: 200, text: '{"ok":true}' });
    expect(read.status).toBe(200);
    const waitedAt = read.ownTime.ownSeconds();
    await sleep(300);
    // No wait is left open on the clock: the call's own time goes on counting.
    expect(read.ownTime.ownSeconds()).toBeGreaterThan(waitedAt + 0.2);
    const connections = sockets.size;
    expect(await get('/b', Date.now() + 5_000)).toMatchObject({ statusCode: 200 });
    expect(sockets.size).toBe(connections);
  });
});
