import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';
import { sandboxToken } from '../../scripts/sandbox-token.js';
import { freshSignatureHeaders } from '../support/webhook-receivers.js';
import { answerToHead, firstAnswer, head, memoryOf, push, unlimited } from './hostile-support.js';

/**
 * 300 MB bodies, anonymous, to every way in (the v1 facade, the SDK signer, the webhook intake, the
 * embedded sandbox's v2 API, and with WORKERS=2 the cluster forward), framed by Content-Length,
 * chunked, and as an HTTP/1.0 body with no length. The gateway runs as its own process, so its
 * memory is its own: read from /proc before and after, the peak (VmHWM) included. A declared
 * length over V1_MAX_BODY_BYTES is refused before a byte is kept; a chunked or unframed body the
 * moment it passes it; what is still sent is thrown away, at most 16 MiB, before the connection
 * closes. Nothing of a body is kept past its refusal, so the peak stays far under one body's size.
 */
const KEY = 'hostilekey000000000000';
const SECRET = 'hostilesecret0000000000000000000';
const TOKEN = 'huge-bodies-webhook-token';
const HUGE = 300 * 1024 * 1024;
/**
 * What memory growth is allowed for all the refused bodies together, garbage not yet collected
 * included: a third of one body (about 35 MiB is seen; keeping one body would be 300).
 */
const GROWTH_BOUND_MIB = 100;
/** What a client manages to send before the gateway closes: the limit, what is thrown away, and socket buffers. */
const SENT_BOUND = 48 * 1024 * 1024;

function env(dir: string): Record<string, string> {
  writeFileSync(join(dir, 'subs.json'), JSON.stringify([{ api_key: 'k', url: 'http://127.0.0.1:9/hook' }]));
  return {
    ...unlimited({ key: KEY, secret: SECRET }),
    V1_WEBHOOKS_FILE: join(dir, 'subs.json'),
    V1_WEBHOOKS_JOURNAL: join(dir, 'journal'),
    V1_WEBHOOKS_ANY_PORT: '1',
    V2_WEBHOOK_SECRET_TOKEN: TOKEN,
  };
}

const tooLarge = 'The request body is larger than the 4194304 bytes v1gate accepts.';

interface Route {
  path: string;
  headers: Record<string, string>;
  /** The route's own answer to a body over the limit. */
  answer: { status: number; body: unknown };
}

async function routes(origin: string): Promise<Route[]> {
  const bearer = await sandboxToken(origin, KEY, SECRET);
  return [
    {
      path: '/v1/user/create',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      answer: { status: 200, body: { error: { code: 300, message: tooLarge } } },
    },
    {
      path: '/sdk/signature',
      headers: { 'Content-Type': 'application/json' },
      answer: { status: 200, body: { error: { code: 300, message: tooLarge } } },
    },
    {
      path: '/webhooks/v2',
      headers: { 'Content-Type': 'application/json', ...freshSignatureHeaders() },
      answer: { status: 413, body: { error: tooLarge } },
    },
    {
      path: '/v2/users',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${bearer}` },
      answer: { status: 413, body: { code: 300, message: tooLarge } },
    },
  ];
}

/** Every framing of one huge body to one route: what came back, and how much the client got to send. */
async function pushEveryFraming(port: number, route: Route) {
  return [
    await push(port, head(`POST ${route.path} HTTP/1.1`, { Host: 'x', ...route.headers, 'Content-Length': HUGE }), HUGE),
    await push(port, head(`POST ${route.path} HTTP/1.1`, { Host: 'x', ...route.headers, 'Transfer-Encoding': 'chunked' }), HUGE, {
      chunked: true,
    }),
    await push(port, head(`POST ${route.path} HTTP/1.0`, route.headers), HUGE),
  ];
}

/** The cluster's worker pids, as its answers name them (`x-v1gate-worker`): v1 answers close their connection, so each call may go to the other worker. */
async function workerPids(url: string): Promise<number[]> {
  const pids = new Set<number>();
  for (let i = 0; i < 40 && pids.size < 2; i++) {
    const answer = await fetch(`${url}/v1/user/checkemail`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `api_key=${KEY}&api_secret=${SECRET}&email=a%40b.c`,
    });
    await answer.text();
    pids.add(Number(answer.headers.get('x-v1gate-worker')));
  }
  return [...pids];
}

describe('300 MB bodies to one gateway process', () => {
  let gateway: GatewayProcess;
  beforeAll(async () => {
    gateway = await startGatewayProcess(env(mkdtempSync(join(tmpdir(), 'v1gate-huge-'))));
  }, 60_000);
  afterAll(() => gateway?.kill());

  it('are refused on every way in, each with its route’s error, none kept in memory', async () => {
    const port = Number(new URL(gateway.url).port);
    // Warm: each route has answered once, so what follows measures bodies, not first-use code.
    for (const route of await routes(gateway.url))
      await fetch(`${gateway.url}${route.path}`, { method: 'POST', headers: route.headers, body: '{}' });
    const before = memoryOf(gateway.pid);
    for (const route of await routes(gateway.url)) {
      const ends = await pushEveryFraming(port, route);
      for (const [i, end] of ends.entries()) {
        const context = `${route.path}, framing ${i}`;
        expect(end.closedByServer, context).toBe(true);
        expect(end.bytesSent, context).toBeLessThan(SENT_BOUND);
        // The answer may be lost to the reset of a client still sending; when it comes, it is the route's own.
        const answer = firstAnswer(end.reply);
        if (answer) expect(answer, context).toEqual(route.answer);
      }
      // A client that declares the length and waits, sending nothing more, always reads the answer.
      const declared = await answerToHead(
        port,
        head(`POST ${route.path} HTTP/1.1`, { Host: 'x', ...route.headers, 'Content-Length': HUGE }),
      );
      expect(declared, route.path).toEqual(route.answer);
    }
    const after = memoryOf(gateway.pid);
    expect(after.peakMiB - before.peakMiB).toBeLessThan(GROWTH_BOUND_MIB);
    expect(after.rssMiB - before.rssMiB).toBeLessThan(GROWTH_BOUND_MIB);
    // And it still answers.
    const answer = await fetch(`${gateway.url}/v1/user/checkemail`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `api_key=${KEY}&api_secret=${SECRET}&email=owner%40sandbox.v1gate.local`,
    });
    expect(await answer.json()).toEqual({ existed_email: true });
  }, 240_000);
});

describe('300 MB bodies to a cluster (WORKERS=2)', () => {
  let gateway: GatewayProcess;
  beforeAll(async () => {
    gateway = await startGatewayProcess({ ...env(mkdtempSync(join(tmpdir(), 'v1gate-huge-'))), WORKERS: '2' }, { startTimeoutMs: 60_000 });
  }, 90_000);
  afterAll(() => gateway?.kill());

  it('are refused by the worker that reads them, before the primary sees a byte, with v2’s error', async () => {
    const port = Number(new URL(gateway.url).port);
    const v2Users = (await routes(gateway.url)).find((route) => route.path === '/v2/users')!;
    const anonymous = { ...v2Users, headers: { 'Content-Type': 'application/json' } };
    const pids = [gateway.pid, ...(await workerPids(gateway.url))];
    expect(pids).toHaveLength(3);
    // Each worker forwards once before the measure (a new connection goes to the next worker).
    for (let i = 0; i < 4; i++) await fetch(`${gateway.url}/v2/users`, { method: 'POST', headers: v2Users.headers, body: '{}' });
    const before = pids.map(memoryOf);
    // Twice each way, so both workers take some of each framing.
    for (const route of [v2Users, anonymous, v2Users, anonymous]) {
      const ends = await pushEveryFraming(port, route);
      for (const end of ends) {
        expect(end.closedByServer).toBe(true);
        expect(end.bytesSent).toBeLessThan(SENT_BOUND);
        const answer = firstAnswer(end.reply);
        if (answer) expect(answer).toEqual(v2Users.answer);
      }
    }
    const after = pids.map(memoryOf);
    pids.forEach((pid, i) => {
      expect(after[i]!.peakMiB - before[i]!.peakMiB, `pid ${pid}`).toBeLessThan(GROWTH_BOUND_MIB);
    });
  }, 240_000);
});
