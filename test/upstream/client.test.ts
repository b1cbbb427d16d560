import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { jwtVerify } from 'jose';
import { V2Client, type OutboundGate } from '../../src/upstream/client.js';
import { UpstreamUnavailable, V2Error } from '../../src/upstream/errors.js';
import { TokenMinter } from '../../src/upstream/jwt.js';
import { V2Authorizer } from '../../src/upstream/auth/authorizer.js';
import { v2Route, type V2Method } from '../../src/v2-contract/v2-route.js';
import { toV1Error } from '../../src/translators/kit/failures.js';
import { RateLimitExceeded } from '../../src/ratelimit/errors.js';
import { settlesBefore } from '../support/timing.js';

/** A route of its own for each test path: the client sends what its target says. */
const to = (method: V2Method, path: `/${string}`) => v2Route(method, path).at();

/**
 * The v2 client against upstreams that misbehave in ways the sandbox never does: slow, down,
 * 503, 429, HTML. Each is a real HTTP server on loopback.
 */

type Handler = (req: IncomingMessage, res: ServerResponse, hit: number) => void;
const servers: { close(): void }[] = [];

async function upstream(handler: Handler): Promise<{ url: string; hits: () => number; requests: IncomingMessage[] }> {
  let hits = 0;
  const requests: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    hits++;
    requests.push(req);
    handler(req, res, hits);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({ close: () => (server.closeAllConnections(), server.close()) });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`, hits: () => hits, requests };
}

afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

const creds = { apiKey: 'key', apiSecret: 'secret' };
const client = (baseUrl: string, opts: Partial<ConstructorParameters<typeof V2Client>[0]> = {}) =>
  new V2Client({
    baseUrl,
    authorizer: new V2Authorizer(new TokenMinter({ ttlSeconds: 60, renewBeforeSeconds: 20, maxCachedKeys: 10 })),
    connections: 4,
    timeoutMs: 2000,
    maxAttempts: 2,
    ...opts,
  });

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

describe('V2Client', () => {
  it('sends a JWT signed with the caller secret, iss = key, short exp, under the base path', async () => {
    const up = await upstream((_req, res) => json(res, 200, { ok: true }));
    expect(await client(up.url).call(creds, { target: to('GET', '/users/me'), query: { a: 1 } })).toEqual({ ok: true });
    const req = up.requests[0]!;
    expect(req.url).toBe('/v2/users/me?a=1');
    const token = req.headers.authorization!.replace('Bearer ', '');
    const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode('secret'));
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload.iss).toBe('key');
    expect(payload.exp! - Date.now() / 1000).toBeLessThanOrEqual(60);
  });

  it('turns a v2 error body into a typed V2Error with its field errors', async () => {
    const up = await upstream((_req, res) =>
      json(res, 400, { code: 300, message: 'Validation Failed.', errors: [{ field: 'settings.audio', message: 'bad' }] }),
    );
    const error = await client(up.url)
      .call(creds, { target: to('PATCH', '/meetings/1'), body: {} })
      .catch((e) => e);
    expect(error).toBeInstanceOf(V2Error);
    expect(error).toMatchObject({ status: 400, code: 300, fieldErrors: [{ field: 'settings.audio', message: 'bad' }] });
    expect(toV1Error(error, (p) => (p === 'settings.audio' ? 'option_audio' : undefined)).toBody()).toEqual({
      error: { code: 300, message: 'Invalid parameter: option_audio. bad' },
    });
  });

  it('retries a GET once on 503, but never a POST', async () => {
    const up = await upstream((_req, res, hit) =>
      hit === 1 ? json(res, 503, { code: 503, message: 'busy' }) : json(res, 200, { ok: hit }),
    );
    expect(await client(up.url).call(creds, { target: to('GET', '/x') })).toEqual({ ok: 2 });
    const up2 = await upstream((_req, res) => json(res, 503, { code: 503, message: 'busy' }));
    const error = await client(up2.url)
      .call(creds, { target: to('POST', '/x'), body: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamUnavailable);
    expect(toV1Error(error).toBody().error).toEqual({ code: 503, message: expect.stringContaining('may or may not have been applied') });
    expect(up2.hits()).toBe(1);
  });

  it('honours Retry-After on a 429 for a safe call, and tells the outbound gate', async () => {
    const penalties: number[] = [];
    const gate: OutboundGate = { schedule: (_c, _t, task) => task(), penalize: (_c, _t, ms) => penalties.push(ms) };
    const up = await upstream((_req, res, hit) =>
      hit === 1 ? json(res, 429, { code: 429, message: 'slow down' }, { 'retry-after': '1' }) : json(res, 200, {}),
    );
    const started = Date.now();
    await client(up.url, { gate }).call(creds, { target: to('GET', '/x') });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(penalties).toEqual([1000]);
  });

  it('answers a 429 on a write with the v1 rate-limit error, without repeating the write', async () => {
    const up = await upstream((_req, res) => json(res, 429, { code: 429, message: 'slow down' }, { 'retry-after': '1' }));
    const error = await client(up.url)
      .call(creds, { target: to('POST', '/x'), body: {} })
      .catch((e) => e);
    expect(up.hits()).toBe(1);
    expect(toV1Error(error).toBody().error.code).toBe(403);
  });

  it('gives up on a slow upstream at the timeout, saying a write may have been applied', async () => {
    const up = await upstream(() => {
      /* never answers */
    });
    const call = client(up.url, { timeoutMs: 300 })
      .call<never>(creds, { target: to('POST', '/x'), body: {} })
      .catch((e: UpstreamUnavailable) => e);
    // At its 300 ms timeout, before a 1.5 s timer started beside it (a loaded machine delays both).
    expect(await settlesBefore(call, 1_500)).toBe(true);
    const error = await call;
    expect(error).toBeInstanceOf(UpstreamUnavailable);
    expect(error.mayHaveApplied).toBe(true);
    expect(toV1Error(error).toBody().error).toEqual({ code: 503, message: expect.stringContaining('may or may not have been applied') });
  });

  it('counts the wait for a pooled connection against the call: calls queued behind a hang fail at their own timeout', async () => {
    const up = await upstream(() => {
      /* never answers */
    });
    const v2 = client(up.url, { timeoutMs: 300, connections: 1, maxAttempts: 1 });
    // Six calls, one connection: waiting for it in turn, each with its own timeout, would take 1.8 s,
    // past a 1.5 s timer started beside them (a loaded machine delays both).
    const all = Promise.all(
      Array.from({ length: 6 }, (_, i) => v2.call(creds, { target: v2Route('GET', '/x/{n}').at(i) }).catch((e: unknown) => e)),
    );
    expect(await settlesBefore(all, 1_500)).toBe(true);
    const errors = await all;
    for (const error of errors) {
      expect(error).toBeInstanceOf(UpstreamUnavailable);
      expect((error as UpstreamUnavailable).reason).toBe('timeout');
    }
    await v2.close();
  });

  it('tries a GET again only while its time lasts: one that got no answer is not sent twice', async () => {
    const up = await upstream(() => {
      /* never answers */
    });
    const v2 = client(up.url, { timeoutMs: 300, maxAttempts: 2 });
    const error = await v2.call(creds, { target: to('GET', '/x') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamUnavailable);
    expect(toV1Error(error).toBody().error).toEqual({ code: 503, message: 'The v2 service did not answer in time. Nothing was changed.' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(up.hits()).toBe(1);
    await v2.close();
  });

  it('answers the upstream failure, never a rate limit, when the limiter cannot let its retry through', async () => {
    let scheduled = 0;
    const gate: OutboundGate = {
      schedule: (_c, _t, task) => (++scheduled === 1 ? task() : Promise.reject(new RateLimitExceeded('deadline', 'light', 1_000))),
      penalize: () => {},
    };
    const up = await upstream((_req, res) => json(res, 503, { code: 503, message: 'busy' }));
    const error = await client(up.url, { gate })
      .call(creds, { target: to('GET', '/x') })
      .catch((e: unknown) => e);
    expect(scheduled).toBe(2);
    expect(error).toBeInstanceOf(UpstreamUnavailable);
    expect(toV1Error(error).toBody().error).toEqual({ code: 503, message: expect.stringContaining('The v2 service failed (HTTP 503).') });
  });

  it('says nothing was changed when the upstream cannot be reached at all', async () => {
    const up = await upstream(() => {});
    for (const s of servers.splice(0)) s.close();
    const error = await client(up.url)
      .call(creds, { target: to('POST', '/x'), body: {} })
      .catch((e) => e);
    expect(error).toBeInstanceOf(UpstreamUnavailable);
    expect(toV1Error(error).toBody().error).toEqual({ code: 503, message: 'The v2 service could not be reached. Nothing was changed.' });
  });

  it('never turns a raw HTTP status into a v1 code (5xx, or an error page without a v2 error)', async () => {
    for (const [status, body] of [
      [500, '{"code":500,"message":"boom"}'],
      [502, '<html>bad gateway</html>'],
      [404, 'Not Found'],
      [431, ''],
    ] as const) {
      const up = await upstream((_req, res) => {
        res.writeHead(status, { 'content-type': 'text/html' });
        res.end(body);
      });
      for (const method of ['GET', 'POST'] as const) {
        const error = await client(up.url, { maxAttempts: 1 })
          .call(creds, { target: to(method, '/x'), body: method === 'POST' ? {} : undefined })
          .catch((e: unknown) => e);
        const v1 = toV1Error(error).toBody().error;
        expect(v1.code, `${status} ${method}`).toBe(503);
        const mayHaveApplied = status >= 500 && method === 'POST';
        expect(v1.message, `${status} ${method}`).toContain(mayHaveApplied ? 'may or may not have been applied' : 'Nothing was changed.');
      }
    }
  });

  it('answers an upstream error for a 200 that is not a v2 answer ([], a string, null)', async () => {
    for (const body of ['[]', '"str"', 'null', '42']) {
      const up = await upstream((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(body);
      });
      const error = await client(up.url, { maxAttempts: 1 })
        .call(creds, { target: to('GET', '/x') })
        .catch((e: unknown) => e);
      expect(error, body).toBeInstanceOf(UpstreamUnavailable);
      expect(toV1Error(error).toBody().error.code).toBe(503);
    }
  });

  it('reads no more than UPSTREAM_MAX_BODY_BYTES of an answer', async () => {
    let sent = 0;
    const up = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (sent < 64 * 1024 * 1024 && res.write(chunk)) sent += chunk.length;
        if (sent < 64 * 1024 * 1024) res.once('drain', pump);
        else res.end();
      };
      res.write('{"a":"');
      pump();
    });
    const error = await client(up.url, { maxAttempts: 1, maxBodyBytes: 1024 * 1024 })
      .call(creds, { target: to('POST', '/x'), body: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamUnavailable);
    expect(toV1Error(error).toBody().error.message).toMatch(/more than 1048576 bytes.*may or may not have been applied/);
    // It stopped reading: far less than the 64 MiB the upstream meant to send went out.
    expect(sent).toBeLessThan(32 * 1024 * 1024);
  });

  it('keeps the v2 errors that are v1 codes already (a coded 404)', async () => {
    const up = await upstream((_req, res) => json(res, 404, { code: 1001, message: 'User not exist: x.' }));
    const error = await client(up.url)
      .call(creds, { target: to('GET', '/x') })
      .catch((e: unknown) => e);
    expect(toV1Error(error).toBody().error).toEqual({ code: 1001, message: 'User not exist: x.' });
  });

  it('reuses keep-alive connections: ten sequential calls open at most two', async () => {
    const ports = new Set<number>();
    const up = await upstream((req, res) => {
      ports.add(req.socket.remotePort!);
      json(res, 200, {});
    });
    const c = client(up.url);
    for (let i = 0; i < 10; i++) await c.call(creds, { target: to('GET', '/x') });
    // undici may alternate between two sockets of the pool, but never opens one per call.
    expect(ports.size).toBeLessThanOrEqual(2);
  });
});

describe('TokenMinter', () => {
  it('reuses a token within its life, and never across secrets', async () => {
    let now = 1_000_000_000_000;
    const minter = new TokenMinter({ ttlSeconds: 60, renewBeforeSeconds: 20, maxCachedKeys: 10, now: () => now });
    const a = await minter.tokenFor({ apiKey: 'k', apiSecret: 's1' });
    expect(await minter.tokenFor({ apiKey: 'k', apiSecret: 's1' })).toBe(a);
    expect(await minter.tokenFor({ apiKey: 'k', apiSecret: 's2' })).not.toBe(a);
    now += 41_000; // within renewBefore of exp: a fresh one
    expect(await minter.tokenFor({ apiKey: 'k', apiSecret: 's1' })).not.toBe(a);
  });
});
