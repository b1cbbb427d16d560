import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { ERROR_TEXTS } from '../../mappings/error-texts.js';
import { httpRequest, rawExchange } from '../support/raw-http.js';

/**
 * Connection-level safety: a request pipelined behind one that closes the connection never runs
 * (its answer would be lost and a retrying client would make a duplicate), and a client that
 * drips its request byte by byte is cut off by the whole-request deadlines.
 */
let gw: TestGateway;
let form: string;
const groupsNamed = async (name: string) =>
  ((await gw.v2('GET', '/groups')).body.groups as { name: string }[]).filter((g) => g.name.startsWith(name)).length;

beforeAll(async () => {
  gw = await startTestGateway({ V1_HEADERS_TIMEOUT_MS: '500', V1_REQUEST_TIMEOUT_MS: '1000' });
  form = new URLSearchParams(gw.credentials).toString();
});
afterAll(() => gw.close());

describe('requests pipelined behind one that closes the connection', () => {
  it('are not run (keep-alive off, the default)', async () => {
    const name = `pipelined-${Date.now()}`;
    const first = httpRequest({ path: '/v1/group/create', body: `${form}&name=${name}-a` });
    const second = httpRequest({ path: '/v1/group/create', body: `${form}&name=${name}-b` });
    const reply = await rawExchange(gw.port, Buffer.concat([first, second]));
    expect(reply.closedByServer).toBe(true);
    expect(JSON.parse(reply.responses[0]!.body)).toMatchObject({ name: `${name}-a` });
    // Its answer (ERROR_TEXTS['not-run']) goes to a connection already closing: nothing after the first answer is sent.
    expect(reply.responses).toHaveLength(1);
    expect(reply.raw).not.toContain(ERROR_TEXTS['not-run'].text);
    expect(await groupsNamed(`${name}-b`)).toBe(0);
    expect(await groupsNamed(`${name}-a`)).toBe(1);
  });

  it('are not run behind a Connection: close request on a kept-alive gateway either', async () => {
    const keepAlive = await startTestGateway({ V1_KEEP_ALIVE: 'on' });
    try {
      const name = `closing-${Date.now()}`;
      const creds = new URLSearchParams(keepAlive.credentials).toString();
      const first = httpRequest({ path: '/v1/group/create', body: `${creds}&name=${name}-a`, headers: { Connection: 'close' } });
      const second = httpRequest({ path: '/v1/group/create', body: `${creds}&name=${name}-b` });
      const reply = await rawExchange(keepAlive.port, Buffer.concat([first, second]));
      expect(reply.responses).toHaveLength(1);
      expect(JSON.parse(reply.responses[0]!.body)).toMatchObject({ name: `${name}-a` });
      const names = ((await keepAlive.v2('GET', '/groups')).body.groups as { name: string }[]).map((g) => g.name);
      expect(names).toContain(`${name}-a`);
      expect(names).not.toContain(`${name}-b`);
    } finally {
      await keepAlive.close();
    }
  });
});

describe('slow clients', () => {
  it('a client that drips its headers is cut off by the headers deadline, with a v1 envelope', async () => {
    const socket = connect(gw.port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (chunk) => received.push(chunk));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('error', () => {});
    await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
    socket.write('POST /v1/user/get HTTP/1.1\r\nHost: x\r\n');
    const drip = setInterval(() => socket.writable && socket.write('X-Slow: a\r\n'), 100);
    const started = Date.now();
    await closed;
    clearInterval(drip);
    // Closed by the 500 ms headers deadline (checked every 500 ms here), long before Node's defaults.
    expect(Date.now() - started).toBeLessThan(20_000);
    const text = Buffer.concat(received).toString();
    expect(text).toMatch(/"error":\{"code":300/);
  });
});

describe('a body larger than V1_MAX_BODY_BYTES', () => {
  it('is answered with the v1 error after the client has sent it, not with a reset', async () => {
    const small = await startTestGateway({ V1_MAX_BODY_BYTES: '2048' });
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const body = `${new URLSearchParams(small.credentials).toString()}&name=${'x'.repeat(12 * 1024 * 1024)}`;
        const socket = connect(small.port, '127.0.0.1');
        const received: Buffer[] = [];
        let failed: Error | undefined;
        socket.on('data', (chunk) => received.push(chunk));
        socket.on('error', (error) => (failed = error));
        const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
        await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
        socket.write(
          `POST /v1/group/create HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n`,
        );
        // Sent in chunks with back-pressure, as a client library streams a file upload.
        for (let at = 0; at < body.length && !socket.destroyed; at += 64 * 1024) {
          if (!socket.write(body.slice(at, at + 64 * 1024))) await new Promise((resolve) => socket.once('drain', resolve));
        }
        socket.end();
        await closed;
        expect(failed, `attempt ${attempt}`).toBeUndefined();
        expect(Buffer.concat(received).toString()).toMatch(
          /"error":\{"code":300,"message":"The request body is larger than the 2048 bytes/,
        );
      }
    } finally {
      await small.close();
    }
  });
});
