import { mkdtempSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningGateway } from '../../src/gateway.js';
import { startFaultUpstream, startGatewayOver, type FaultUpstream } from '../support/fault-upstream.js';
import { rawExchange } from '../support/raw-http.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';
import { postV1 } from '../support/v1-form.js';
import { healUpstream, noCloseWait, USER_GET } from '../support/v2-faults.js';
import { failOnUnhandled } from '../support/unhandled.js';

/**
 * What the hot paths' rewrites for speed must keep: the v2 client's error and retry paths (a 401's
 * renewal on a read and on a write, at most once; a 429 waited out; a 502/503/504 of a GET sent
 * again and of a write not), the coalescing of identical GETs (never across secrets, an error to
 * every joined caller, a write stopping the joining), per-request state on a kept-alive and a
 * pipelined connection, a client that leaves mid-body or before its answer, field names from input
 * that a compiled function must not trip on, and the call line: valid JSON whatever a param holds,
 * its fields all there, the secret never in it. Each is driven as a legacy client drives it, over
 * HTTP, through a gateway in front of a fault proxy over the real sandbox.
 *
 * Every process-level error is collected: a rejection nobody handles (a promise left behind when
 * async layers were folded into callbacks) would end a gateway.
 */

failOnUnhandled();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const V1_ERROR = { error: { code: expect.any(Number), message: expect.stringMatching(/\w/) } };
const USER_PATCH = /^\/users\/[^/]+$/;

let sandbox: RunningSandbox;
let faults: FaultUpstream;
let gateway: RunningGateway;
let creds: { api_key: string; api_secret: string };
let owner: string;
let logFile: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  faults = await startFaultUpstream(`${sandbox.url}/v2`);
  creds = { api_key: sandbox.sandbox.credentials.apiKey, api_secret: sandbox.sandbox.credentials.apiSecret };
  owner = sandbox.sandbox.master.ownerId;
  logFile = join(mkdtempSync(join(tmpdir(), 'v1gate-hot-paths-')), 'gateway.log');
  gateway = await startGatewayOver(faults.url, {
    UPSTREAM_TIMEOUT_MS: '5000',
    V1_KEEP_ALIVE: 'on',
    LOG_LEVEL: 'info',
    LOG_FILE: logFile,
  });
}, 60_000);
afterAll(async () => {
  await gateway?.close();
  await faults?.close();
  await sandbox?.close();
});

async function v1(path: string, params: Record<string, string>): Promise<{ body: Record<string, unknown>; v2Calls: number }> {
  const response = await postV1(gateway.url, path, params);
  expect(response.status).toBe(200);
  return { body: (await response.json()) as Record<string, unknown>, v2Calls: Number(response.headers.get('x-v2-calls') ?? 0) };
}

const userGet = (params: Record<string, string> = creds) => v1('/user/get', { ...params, id: owner });
const seenOf = (method: string, path: RegExp) => faults.seen.filter((seen) => seen.method === method && path.test(seen.path));

function fault(method: string, path: RegExp, fault: FaultUpstream['rules'][number]['fault'], times?: number): void {
  healUpstream(faults);
  faults.rules.push({ method, path, fault, ...(times === undefined ? {} : { times }) });
}

const REVOKED = { kind: 'answer', status: 401, body: '{"code":124,"message":"Invalid access token."}' } as const;

describe('the v2 client’s error and retry paths', { timeout: 60_000 }, () => {
  afterEach(() => healUpstream(faults));

  it('a read whose token v2 refused once: renewed, sent again, answered', async () => {
    fault('GET', USER_GET, REVOKED, 1);
    const { body } = await userGet();
    expect(body).toMatchObject({ id: owner });
    expect(seenOf('GET', USER_GET).map((seen) => seen.fault)).toEqual(['answer', 'none']);
  });

  it('a write whose token v2 refused once: renewed, sent again, applied', async () => {
    fault('PATCH', USER_PATCH, REVOKED, 1);
    const { body } = await v1('/user/update', { ...creds, id: owner, first_name: 'Renewed' });
    expect(body.error, JSON.stringify(body)).toBeUndefined();
    expect(seenOf('PATCH', USER_PATCH).map((seen) => seen.fault)).toEqual(['answer', 'none']);
    healUpstream(faults);
    expect((await userGet()).body).toMatchObject({ first_name: 'Renewed' });
  });

  it('a token refused again after its renewal: the v1 error, renewed once only', async () => {
    fault('GET', USER_GET, REVOKED);
    expect((await userGet()).body).toEqual(V1_ERROR);
    expect(seenOf('GET', USER_GET)).toHaveLength(2);
    healUpstream(faults);
    expect((await userGet()).body).toMatchObject({ id: owner });
  });

  it.each([502, 503, 504])('a GET answered %i once: sent again, answered', async (status) => {
    fault('GET', USER_GET, { kind: 'answer', status, body: `{"code":${status},"message":"busy"}` }, 1);
    expect((await userGet()).body).toMatchObject({ id: owner });
    expect(seenOf('GET', USER_GET)).toHaveLength(2);
  });

  it('a write answered 503: not sent again, the v1 error', async () => {
    fault('PATCH', USER_PATCH, { kind: 'answer', status: 503, body: '{"code":503,"message":"busy"}' });
    expect((await v1('/user/update', { ...creds, id: owner, first_name: 'Never' })).body).toEqual(V1_ERROR);
    expect(seenOf('PATCH', USER_PATCH)).toHaveLength(1);
  });

  it('a GET answered 429 with a short Retry-After: waited out, sent again, answered', async () => {
    fault('GET', USER_GET, { kind: 'answer', status: 429, body: '{"code":429,"message":"too many"}', headers: { 'retry-after': '1' } }, 1);
    const started = Date.now();
    expect((await userGet()).body).toMatchObject({ id: owner });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(seenOf('GET', USER_GET)).toHaveLength(2);
  });

  it('a reset mid-body of a write: the v1 error, not sent again; the next call served, no CLOSE-WAIT', async () => {
    fault('PATCH', USER_PATCH, { kind: 'reset-after-apply' });
    expect((await v1('/user/update', { ...creds, id: owner, first_name: 'Maybe' })).body).toEqual(V1_ERROR);
    expect(seenOf('PATCH', USER_PATCH)).toHaveLength(1);
    healUpstream(faults);
    expect((await userGet()).body).toMatchObject({ id: owner });
    expect(await noCloseWait()).toBe(0);
  });

  it('a GET that hangs past the deadline: the v1 error at the deadline, then served', async () => {
    fault('GET', USER_GET, { kind: 'hang' });
    const started = Date.now();
    expect((await userGet()).body).toEqual(V1_ERROR);
    expect(Date.now() - started).toBeLessThan(15_000);
    healUpstream(faults);
    expect((await userGet()).body).toMatchObject({ id: owner });
  });
});

describe('coalescing of identical GETs', { timeout: 60_000 }, () => {
  afterEach(() => healUpstream(faults));

  it('two callers of one key with different secrets never share an answer', async () => {
    fault('GET', USER_GET, { kind: 'delay', ms: 400 });
    const [right, wrong] = await Promise.all([userGet(), userGet({ ...creds, api_secret: `${creds.api_secret}-not` })]);
    expect(right.body).toMatchObject({ id: owner });
    expect(wrong.body).toEqual(V1_ERROR);
    expect(JSON.stringify(wrong.body)).not.toContain(owner);
  });

  it('a failure reaches every joined caller, and v2 is asked once per try', async () => {
    // The one call sent hangs past its deadline: the joined callers get its error, none sends its own.
    fault('GET', USER_GET, { kind: 'hang' });
    const answers = await Promise.all([userGet(), userGet(), userGet()]);
    for (const answer of answers) expect(answer.body).toEqual(V1_ERROR);
    expect(seenOf('GET', USER_GET)).toHaveLength(1);
    // Only the sender counts what it sent (its pair's proof too, where one was due); the joined sent nothing.
    const counted = answers.map((answer) => answer.v2Calls).sort();
    expect(counted.slice(0, 2)).toEqual([0, 0]);
    expect(counted[2]).toBeGreaterThanOrEqual(1);
  });

  it('identical GETs at once: one v2 call, each caller its own answer', async () => {
    fault('GET', USER_GET, { kind: 'delay', ms: 300 });
    const answers = await Promise.all([userGet(), userGet(), userGet()]);
    for (const answer of answers) expect(answer.body).toMatchObject({ id: owner });
    expect(seenOf('GET', USER_GET)).toHaveLength(1);
  });

  it('a read made after a write of the same key never joins a GET sent before the write', async () => {
    // The pair proven first: its first v2 call proves it, and the others of the pair wait for that one.
    expect((await userGet()).body).toMatchObject({ id: owner });
    fault('GET', USER_GET, { kind: 'delay', ms: 3_000 }, 1);
    let firstDone = false;
    const before = userGet().then((answer) => ((firstDone = true), answer));
    await sleep(100);
    // A write of the same key that reads nothing the first GET reads: it joins nothing itself.
    const { body } = await v1('/user/custcreate', { ...creds, email: `written-${Date.now()}@example.com`, type: '1' });
    expect(body.error, JSON.stringify(body)).toBeUndefined();
    // Still in flight when the read after the write is made: it could be joined, and must not be.
    expect(firstDone).toBe(false);
    const gets = seenOf('GET', USER_GET).length;
    const after = await userGet();
    expect(firstDone).toBe(false);
    expect(after.body).toMatchObject({ id: owner });
    expect(seenOf('GET', USER_GET).length).toBe(gets + 1);
    await before;
  });
});

/** Requests written on one connection, in one write (pipelined) or one after the other's answer. */
function formRequest(path: string, params: Record<string, string>): string {
  const body = new URLSearchParams(params).toString();
  return (
    `POST /v1${path} HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/x-www-form-urlencoded\r\n` +
    `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

describe('one connection, several calls', { timeout: 60_000 }, () => {
  it('pipelined: a call with a wrong secret after a right one is refused; XML asked once is not kept', async () => {
    const requests =
      formRequest('/user/get', { ...creds, id: owner, data_type: 'XML' }) +
      formRequest('/user/get', { ...creds, api_secret: 'wrong', id: owner }) +
      formRequest('/user/get', { ...creds, id: owner });
    const reply = await rawExchange(gateway.port, requests, { waitMs: 3_000 });
    expect(reply.responses).toHaveLength(3);
    const [xml, wrong, json] = reply.responses;
    expect(xml!.body).toMatch(/^<\?xml/);
    expect(xml!.body).toContain(owner);
    expect(JSON.parse(wrong!.body)).toEqual(V1_ERROR);
    expect(JSON.parse(json!.body)).toMatchObject({ id: owner });
    expect(new Set(reply.responses.map((r) => r.headers['x-request-id'])).size).toBe(3);
  });

  it('kept alive: a call after a refused one on the same socket is served, and the refused one’s fields are not seen', async () => {
    const socket = connect(gateway.port, '127.0.0.1');
    const answers: string[] = [];
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    const nextAnswer = async () => {
      for (let waited = 0; waited < 10_000; waited += 20) {
        const at = text.indexOf('\r\n\r\n');
        const length = /content-length: (\d+)/i.exec(text.slice(0, at))?.[1];
        if (at !== -1 && length !== undefined && text.length >= at + 4 + Number(length)) {
          answers.push(text.slice(at + 4, at + 4 + Number(length)));
          text = text.slice(at + 4 + Number(length));
          return answers.at(-1)!;
        }
        await sleep(20);
      }
      throw new Error(`no answer: ${text}`);
    };
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(formRequest('/user/get', { ...creds, id: 'no-such-user-at-all' }));
    expect(JSON.parse(await nextAnswer())).toEqual(V1_ERROR);
    // No id this time: a call that reused the first's params would read its id.
    socket.write(formRequest('/user/get', { ...creds }));
    expect(JSON.parse(await nextAnswer())).toEqual(V1_ERROR);
    socket.write(formRequest('/user/get', { ...creds, id: owner }));
    expect(JSON.parse(await nextAnswer())).toMatchObject({ id: owner });
    socket.destroy();
  });
});

describe('a client that leaves', { timeout: 60_000 }, () => {
  afterEach(() => healUpstream(faults));

  /** The call lines written so far: every call, answered or not, is told to its observers once. */
  const callLines = () =>
    readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((line) => /"msg":"v1 call( failed)?"/.test(line)).length;

  it('mid-body, and before its answer: nothing unhandled, nothing left open, each call ended and logged, the next call served', async () => {
    const linesBefore = callLines();
    for (let i = 0; i < 5; i++) {
      const midBody = connect(gateway.port, '127.0.0.1');
      await new Promise((resolve) => midBody.once('connect', resolve));
      midBody.write(
        'POST /v1/user/get HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/x-www-form-urlencoded\r\ncontent-length: 500\r\n\r\napi_key=',
      );
      await sleep(30);
      midBody.destroy();
    }
    fault('GET', USER_GET, { kind: 'delay', ms: 500 });
    for (let i = 0; i < 5; i++) {
      const early = connect(gateway.port, '127.0.0.1');
      await new Promise((resolve) => early.once('connect', resolve));
      early.write(formRequest('/user/get', { ...creds, id: owner }));
      await sleep(100);
      early.destroy();
    }
    await sleep(800);
    healUpstream(faults);
    expect((await userGet()).body).toMatchObject({ id: owner });
    expect(await noCloseWait()).toBe(0);
    // Every connection let go: only the test's own kept-alive fetch connections may remain.
    const open = await new Promise<number>((resolve, reject) =>
      gateway.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );
    expect(open).toBeLessThanOrEqual(2);
    // Ten calls left, one served: a read or an answer left waiting for ever would never write its line.
    for (let waited = 0; waited < 10_000 && callLines() < linesBefore + 11; waited += 100) await sleep(100);
    expect(callLines()).toBe(linesBefore + 11);
  });
});

describe('field names a compiled function must not trip on', { timeout: 60_000 }, () => {
  it.each([
    ['__proto__', 'x'],
    ['__proto__[polluted]', 'yes'],
    ['constructor', 'x'],
    ['constructor[prototype][polluted]', 'yes'],
    ['prototype', 'x'],
    ['toString', 'x'],
    ['hasOwnProperty', 'x'],
    ['first_name"];throw 1;//', 'x'],
    ['é\u2028\u2029名前', 'x'],
    ['id\u0000', 'x'],
  ])('a field named %j beside a real call: the same answer, nothing polluted', async (name, value) => {
    const plain = await userGet();
    const body = `${new URLSearchParams({ ...creds, id: owner }).toString()}&${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
    const response = await fetch(`${gateway.url}/v1/user/get`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(plain.body);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('a write with such fields and a very long value: applied as without them', async () => {
    const long = 'n'.repeat(60);
    const params = new URLSearchParams({ ...creds, id: owner, first_name: 'Plain', last_name: long });
    params.append('__proto__', 'x');
    params.append('constructor', 'y');
    const response = await fetch(`${gateway.url}/v1/user/update`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: params.toString(),
    });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as Record<string, unknown>;
    expect(answer.error, JSON.stringify(answer)).toBeUndefined();
    expect((await userGet()).body).toMatchObject({ first_name: 'Plain', last_name: long });
  });
});

describe('the call line', { timeout: 60_000 }, () => {
  const linesOf = (reqId: string): Record<string, unknown>[] =>
    readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((line) => line.includes(reqId))
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  async function lineOf(response: Response): Promise<Record<string, unknown>> {
    const reqId = response.headers.get('x-request-id') ?? '';
    expect(reqId).not.toBe('');
    for (let waited = 0; waited < 10_000; waited += 50) {
      const lines = linesOf(reqId).filter((line) => line.msg === 'v1 call' || line.msg === 'v1 call failed');
      if (lines.length > 0) {
        expect(lines).toHaveLength(1);
        return lines[0]!;
      }
      await sleep(50);
    }
    throw new Error(`no call line for ${reqId}`);
  }

  it.each([
    ['control characters', 'a\u0000b\u0001c\u001b[31md\u007fe\r\nf"g\\h'],
    ['a lone high surrogate', 'x\ud800y'],
    ['a lone low surrogate at the end', 'x\udc00'],
    ['a reversed pair', '\udc00\ud800'],
    ['line and paragraph separators', 'a\u2028b\u2029c'],
    ['a huge value', 'h'.repeat(200_000)],
  ])('a param holding %s: one valid JSON line, every field there, no secret', async (_name, value) => {
    const response = await postV1(gateway.url, '/user/get', { ...creds, id: owner, odd: value, password: 'hunter2-plain' });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const line = await lineOf(response);
    for (const field of [
      'level',
      'time',
      'msg',
      'reqId',
      'trace_id',
      'span_id',
      'method',
      'peer',
      'endpoint',
      'code',
      'ms',
      'keyHash',
      'params',
      'v2',
    ]) {
      expect(line, field).toHaveProperty(field);
    }
    expect(line.endpoint).toBe('/user/get');
    const written = JSON.stringify(line);
    expect(written).not.toContain(creds.api_secret);
    expect(written).not.toContain('hunter2-plain');
  });

  it.each<[string, (secret: string) => Record<string, string>]>([
    ['a param that is the secret', (secret) => ({ note: secret })],
    ['a param that holds the secret inside plain text', (secret) => ({ note: `before-${secret}-after` })],
    ['a param that holds the secret after a name and =', (secret) => ({ note: `zak=${secret}` })],
    ['a param that holds the secret in an XML element', (secret) => ({ note: `<zak>${secret}</zak>` })],
    ['a param that holds the secret in JSON', (secret) => ({ note: `{"zak":"${secret}"}` })],
    ['a param that holds the secret beside a control character', (secret) => ({ note: `\u0001${secret}` })],
    ['a param named as a secret in another spelling', () => ({ API_Secret: 'spelt-otherwise-1', Password: 'spelt-otherwise-2' })],
    ['a param whose name is the secret', (secret) => ({ [secret]: 'x' })],
  ])('%s: never in the call line', async (_name, extra) => {
    const response = await postV1(gateway.url, '/user/get', { ...creds, id: owner, ...extra(creds.api_secret) });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const written = JSON.stringify(await lineOf(response));
    expect(written).not.toContain(creds.api_secret);
    expect(written).not.toContain('spelt-otherwise');
  });

  it('an unknown path holding the secret: never in the call line', async () => {
    const response = await postV1(gateway.url, `/user/${creds.api_secret}`, { ...creds });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const line = await lineOf(response);
    expect(line).toHaveProperty('path');
    expect(JSON.stringify(line)).not.toContain(creds.api_secret);
  });

  it('a failed call’s line too: valid JSON, its kind, the secret redacted', async () => {
    fault('GET', USER_GET, { kind: 'answer', status: 500, body: '{"code":500,"message":"\u0000\ud800 broken"}' });
    const response = await postV1(gateway.url, '/user/get', { ...creds, id: owner, odd: '\u0000\ud800' });
    healUpstream(faults);
    expect(await response.json()).toEqual(V1_ERROR);
    const line = await lineOf(response);
    expect(line.msg).toBe('v1 call failed');
    expect(line).toHaveProperty('kind');
    expect(line.code).not.toBe(0);
    expect(JSON.stringify(line)).not.toContain(creds.api_secret);
  });
});

describe('shutdown with calls in flight', { timeout: 60_000 }, () => {
  afterEach(() => healUpstream(faults));

  it('within its grace: the call in flight answered, a new one refused with connection: close', async () => {
    const draining = await startGatewayOver(faults.url, { UPSTREAM_TIMEOUT_MS: '5000' });
    try {
      const proven = await postV1(draining.url, '/user/get', { ...creds, id: owner });
      expect(await proven.json()).toMatchObject({ id: owner });
      fault('GET', USER_GET, { kind: 'delay', ms: 800 });
      const inFlight = postV1(draining.url, '/user/get', { ...creds, id: owner });
      await sleep(200);
      const drained = draining.drain(10_000);
      const refused = await postV1(draining.url, '/user/get', { ...creds, id: owner });
      expect(refused.status).toBe(200);
      expect(refused.headers.get('connection')).toBe('close');
      expect(await refused.json()).toEqual(V1_ERROR);
      expect(await (await inFlight).json()).toMatchObject({ id: owner });
      await drained;
    } finally {
      await draining.close();
    }
  });

  it('past its grace: the call in flight answered with the v1 error, never a reset, nothing unhandled', async () => {
    const draining = await startGatewayOver(faults.url, { UPSTREAM_TIMEOUT_MS: '20000' });
    try {
      const proven = await postV1(draining.url, '/user/get', { ...creds, id: owner });
      expect(await proven.json()).toMatchObject({ id: owner });
      fault('GET', USER_GET, { kind: 'hang' });
      const inFlight = postV1(draining.url, '/user/get', { ...creds, id: owner });
      await sleep(200);
      const started = Date.now();
      const drained = draining.drain(300);
      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual(V1_ERROR);
      expect(Date.now() - started).toBeLessThan(10_000);
      await drained;
    } finally {
      await draining.close();
    }
  });
});
