import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { V2Client, type OutboundGate } from '../../src/upstream/client.js';
import { CallWithdrawn, V2Error } from '../../src/upstream/errors.js';
import { TokenMinter } from '../../src/upstream/jwt.js';
import { V2Authorizer } from '../../src/upstream/auth/authorizer.js';
import { v2Route, type V2Method } from '../../src/v2-contract/v2-route.js';
import { leavingOf } from '../../src/shared/leaving.js';

/** A route of its own for each test path: the client sends what its target says. */
const to = (method: V2Method, path: `/${string}`) => v2Route(method, path).at();

/**
 * Identical concurrent GETs are sent once: proven by counting the requests a real loopback
 * upstream receives and the `onSend` calls each caller sees.
 */

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** An upstream that holds every answer `ms` so calls overlap, and records each request line. */
async function slowUpstream(
  ms: number,
  answer: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    setTimeout(() => answer(req, res), ms);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({ close: () => (server.closeAllConnections(), server.close()) });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`, seen };
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

const client = (baseUrl: string, gate?: OutboundGate) =>
  new V2Client({
    baseUrl,
    authorizer: new V2Authorizer(new TokenMinter({ ttlSeconds: 60, renewBeforeSeconds: 20, maxCachedKeys: 10 })),
    connections: 8,
    timeoutMs: 2000,
    maxAttempts: 1,
    gate,
  });

const creds = { apiKey: 'key', apiSecret: 'secret' };

describe('GET coalescing', () => {
  it('sends identical concurrent GETs once; every caller gets its own copy of the answer; only one is counted as sent', async () => {
    const up = await slowUpstream(50, (_req, res) => json(res, 200, { meetings: [{ id: 1 }] }));
    const v2 = client(up.url);
    let sent = 0;
    const get = () =>
      v2.call<{ meetings: { id: number }[] }>(creds, {
        target: to('GET', '/users/u/meetings'),
        query: { type: 'live', page_size: 300 },
        onSend: () => sent++,
      });
    // The same query in another order is the same request.
    const reordered = v2.call(creds, {
      target: to('GET', '/users/u/meetings'),
      query: { page_size: 300, type: 'live' },
      onSend: () => sent++,
    });
    const answers = await Promise.all([get(), get(), get(), reordered]);
    expect(up.seen).toHaveLength(1);
    expect(sent).toBe(1);
    for (const answer of answers) expect(answer).toEqual({ meetings: [{ id: 1 }] });
    answers[1].meetings.push({ id: 2 });
    expect(answers[0].meetings).toHaveLength(1);
    await v2.close();
  });

  it('gives every waiter the same error', async () => {
    const up = await slowUpstream(50, (_req, res) => json(res, 404, { code: 3001, message: 'Meeting does not exist: 9.' }));
    const v2 = client(up.url);
    const results = await Promise.allSettled([1, 2, 3].map(() => v2.call(creds, { target: to('GET', '/meetings/9') })));
    expect(up.seen).toHaveLength(1);
    for (const r of results) {
      expect(r.status).toBe('rejected');
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(V2Error);
      expect((r as PromiseRejectedResult).reason.code).toBe(3001);
    }
    await v2.close();
  });

  it('never joins a query whose value only reads like another query: names and values are encoded, in the key as on the wire', async () => {
    const up = await slowUpstream(30, (req, res) => json(res, 200, { path: req.url }));
    const v2 = client(up.url);
    const target = to('GET', '/users/u/meetings');
    const answers = await Promise.all([
      v2.call(creds, { target, query: { type: 'a&page_size=1' } }),
      v2.call(creds, { target, query: { type: 'a', page_size: 1 } }),
      v2.call(creds, { target, query: { type: 'a b', skipped: undefined } }),
      v2.call(creds, { target, query: { type: 'a b' } }),
    ]);
    // Sent over parallel connections: the order they arrive in is the network's, not the test's.
    expect([...up.seen].sort()).toEqual(
      [
        'GET /v2/users/u/meetings?type=a%26page_size%3D1',
        'GET /v2/users/u/meetings?type=a&page_size=1',
        'GET /v2/users/u/meetings?type=a%20b',
      ].sort(),
    );
    expect(answers.map((answer) => (answer as { path: string }).path)).toEqual([
      '/v2/users/u/meetings?type=a%26page_size%3D1',
      '/v2/users/u/meetings?type=a&page_size=1',
      '/v2/users/u/meetings?type=a%20b',
      '/v2/users/u/meetings?type=a%20b',
    ]);
    await v2.close();
  });

  it('never joins other secrets, other keys, other queries, or writes; a later GET is sent again', async () => {
    const up = await slowUpstream(30, (req, res) => json(res, 200, { path: req.url }));
    const v2 = client(up.url);
    await Promise.all([
      v2.call(creds, { target: to('GET', '/users/me') }),
      v2.call({ apiKey: 'key', apiSecret: 'other secret' }, { target: to('GET', '/users/me') }),
      v2.call({ apiKey: 'other', apiSecret: 'secret' }, { target: to('GET', '/users/me') }),
      v2.call(creds, { target: to('GET', '/users/me'), query: { a: 1 } }),
      v2.call(creds, { target: to('DELETE', '/meetings/1') }),
      v2.call(creds, { target: to('DELETE', '/meetings/1') }),
    ]);
    expect(up.seen).toHaveLength(6);
    await v2.call(creds, { target: to('GET', '/users/me') });
    expect(up.seen).toHaveLength(7);
    await v2.close();
  });

  it('a GET after a write of the same key does not join a GET sent before it', async () => {
    const up = await slowUpstream(40, (req, res) => json(res, 200, { at: req.url }));
    const v2 = client(up.url);
    const before = v2.call(creds, { target: to('GET', '/users/u/meetings') });
    await v2.call(creds, { target: to('PUT', '/meetings/1/status'), body: { action: 'end' } });
    const after = v2.call(creds, { target: to('GET', '/users/u/meetings') });
    await Promise.all([before, after]);
    expect(up.seen.filter((s) => s.startsWith('GET'))).toHaveLength(2);
    await v2.close();
  });

  it('a waiter sends its own call when the sender was withdrawn (its client left)', async () => {
    const up = await slowUpstream(10, (_req, res) => json(res, 200, { ok: true }));
    // A gate that holds each call for a token long enough for the first caller to leave.
    const gate: OutboundGate = {
      schedule: async (_c, _t, task, options) => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        if (options?.leaving?.left) throw new CallWithdrawn();
        return task();
      },
      penalize: () => {},
    };
    const v2 = client(up.url, gate);
    const leaving = new AbortController();
    const first = v2.call(creds, { target: to('GET', '/users/me'), leaving: leavingOf(leaving.signal) });
    let waiterSent = 0;
    const waiter = v2.call(creds, { target: to('GET', '/users/me'), onSend: () => waiterSent++ });
    leaving.abort();
    await expect(first).rejects.toBeInstanceOf(CallWithdrawn);
    await expect(waiter).resolves.toEqual({ ok: true });
    expect(waiterSent).toBe(1);
    expect(up.seen).toHaveLength(1);
    await v2.close();
  });
});
