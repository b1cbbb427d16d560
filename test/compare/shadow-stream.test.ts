import { createHash } from 'node:crypto';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startGateway, type RunningGateway } from '../../src/gateway.js';
import { settlesBefore } from '../support/timing.js';

/**
 * Shadow mode streams the primary's answer to the client as it arrives: the edges of that stream.
 * The primary here is a plain Node server whose behaviour each path picks.
 */

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const big = Buffer.alloc(2 * 1024 * 1024, 'v1 bytes, '); // past any socket buffer: backpressure is exercised
const primaryClosed: string[] = [];
const handlers: Record<string, Handler> = {
  // Headers and part of the body, then the connection dies.
  '/v1/user/list': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
    res.write('{"users":[');
    setTimeout(() => res.socket?.destroy(), 20);
  },
  // Headers and a first chunk, then nothing until the client gives up.
  '/v1/meeting/list': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
    res.write('{"meetings":[');
    res.once('close', () => primaryClosed.push('/v1/meeting/list'));
  },
  // A large answer with a length, sent in chunks.
  '/v1/report/getdailyreport': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(big.length) });
    for (let at = 0; at < big.length; at += 64 * 1024) res.write(big.subarray(at, at + 64 * 1024));
    res.end();
  },
  '/v1/user/checkemail': (_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' }).end('{"existed_email":true}'),
};

let primary: Server;
let shadow: RunningGateway;
beforeAll(async () => {
  primary = createServer((req, res) => {
    req.resume();
    req.on('end', () => handlers[req.url ?? '']?.(req, res));
  });
  await new Promise<void>((resolve) => primary.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(primary.address() as AddressInfo).port}`;
  shadow = await startGateway(
    loadConfig({ PORT: '0', V1_PRIMARY_URL: url, SHADOW_SAMPLE: '0', V1_RATE_LIMITS: 'off', V2_RATE_LIMITS: 'off', LOG_LEVEL: 'silent' }),
  );
});
afterAll(async () => {
  await shadow?.close();
  primary?.closeAllConnections();
  await new Promise<void>((resolve) => primary?.close(() => resolve()));
});

const post = (path: string) =>
  fetch(`${shadow.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'api_key=k&api_secret=s',
  });

describe('shadow streaming', () => {
  it("streams a large answer byte for byte, with the primary's length", async () => {
    const response = await post('/v1/report/getdailyreport');
    expect(response.headers.get('content-length')).toBe(String(big.length));
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(createHash('sha256').update(big).digest('hex'));
  });

  it("cuts the client's connection when the primary fails mid-answer, and keeps serving", async () => {
    const before = shadow.shadow!.stats().interrupted;
    // node:http's client, strict about chunked framing: it must see the answer end short, never a
    // truncated body taken for a whole one.
    const ending = await new Promise<string>((resolve) => {
      const req = request(
        `${shadow.url}/v1/user/list`,
        { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
        (res) => {
          expect(res.statusCode).toBe(200);
          res.on('data', () => {});
          res.once('end', () => resolve(res.complete ? 'complete' : 'cut'));
          res.once('error', () => resolve('cut'));
        },
      );
      req.once('error', () => resolve('cut'));
      req.end('api_key=k&api_secret=s');
    });
    expect(ending).toBe('cut');
    await expect.poll(() => shadow.shadow!.stats().interrupted).toBe(before + 1);
    expect(await (await post('/v1/user/checkemail')).text()).toBe('{"existed_email":true}');
  });

  it("abandons the primary's answer when the client leaves mid-stream", async () => {
    const before = shadow.shadow!.stats().interrupted;
    await new Promise<void>((resolve, reject) => {
      const req = request(
        `${shadow.url}/v1/meeting/list`,
        { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
        (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        },
      );
      req.on('error', () => {});
      req.once('error', reject);
      req.end('api_key=k&api_secret=s');
    });
    await expect.poll(() => shadow.shadow!.stats().interrupted).toBe(before + 1);
    await expect.poll(() => primaryClosed).toContain('/v1/meeting/list');
    expect(await (await post('/v1/user/checkemail')).text()).toBe('{"existed_email":true}');
  });
});

describe('comparisons behind a slow primary', () => {
  it('still run while a forward stays in flight: waiting for a quiet turn is bounded', async () => {
    const comparing = await startGateway(
      loadConfig({
        PORT: '0',
        V1_PRIMARY_URL: `http://127.0.0.1:${(primary.address() as AddressInfo).port}`,
        SHADOW_SAMPLE: '1',
        UPSTREAM_TIMEOUT_MS: '60000',
        V1_RATE_LIMITS: 'off',
        V2_RATE_LIMITS: 'off',
        LOG_LEVEL: 'silent',
      }),
    );
    // A forward that stays in flight (the primary sends a first chunk, then nothing), as forwards
    // to a real v1 nearly always are at a steady rate.
    const hanging = request(`${comparing.url}/v1/meeting/list`, { method: 'POST' });
    hanging.on('error', () => {});
    const firstChunk = new Promise<void>((resolve) => hanging.once('response', (res) => res.once('data', () => resolve())));
    hanging.end('api_key=k&api_secret=s');
    try {
      await firstChunk;
      const answer = await fetch(`${comparing.url}/v1/user/checkemail`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'api_key=k&api_secret=s&email=a%40b.c',
      });
      expect(await answer.text()).toBe('{"existed_email":true}');
      // Long before the hanging forward ends (the primary timeout is a minute): before a timer of
      // half that started beside it, however late a loaded machine runs both.
      expect(await settlesBefore(comparing.shadow!.idle(), 30_000)).toBe(true);
      expect(comparing.shadow!.stats()).toMatchObject({ compared: 1, dropped: 0 });
    } finally {
      hanging.destroy();
      await comparing.close();
    }
  });
});
