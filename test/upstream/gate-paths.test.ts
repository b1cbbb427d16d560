import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { V2Client, openGate, type OutboundGate, type V2CallObservation } from '../../src/upstream/client.js';
import type { V2Authorizer } from '../../src/upstream/auth/authorizer.js';
import type { Grant } from '../../src/upstream/auth/oauth-tokens.js';
import { OwnTime } from '../../src/shared/own-time.js';
import { RateLimitExceeded } from '../../src/ratelimit/errors.js';
import { toV1Error } from '../../src/translators/kit/failures.js';
import { v2Route, type V2Method } from '../../src/v2-contract/v2-route.js';

/**
 * The v2 client sends an attempt its gate admits at once (`admitNow`, and the open gate itself)
 * without a promise of the gate's, its end told to the call directly; any other attempt goes
 * through the gate's `schedule`, whose promise tells it. These hold the two ways to one behaviour
 * over a real HTTP upstream that answers each attempt from a script: the same call ends alike
 * (its answer or its error as v1 would see it), v2 is asked as often, the observers and the gate
 * are told the same, and the call's own-time clock is left with no wait open.
 */

/** How the upstream answers one attempt. */
const ANSWERS = ['ok', 'no-content', 'busy', 'slow-down', 'token-refused', 'not-json', 'array', 'reset', 'coded-404'] as const;
type Answer = (typeof ANSWERS)[number];

function answer(res: ServerResponse, kind: Answer, hit: number): void {
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', 'x-zm-trackingid': `t${hit}`, ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  switch (kind) {
    case 'ok':
      return json(200, { hit }, { 'x-ratelimit-type': 'QPS', 'x-ratelimit-remaining': '7' });
    case 'no-content':
      res.writeHead(204).end();
      return;
    case 'busy':
      return json(503, { code: 503, message: 'busy' });
    case 'slow-down':
      return json(429, { code: 429, message: 'You have reached the maximum per-second rate limit.' }, { 'retry-after': '0' });
    case 'token-refused':
      return json(401, { code: 124, message: 'Invalid access token.' });
    case 'not-json':
      return json(200, '<html>');
    case 'array':
      return json(200, '[]');
    case 'reset':
      res.socket?.destroy();
      return;
    case 'coded-404':
      return json(404, { code: 1001, message: 'User does not exist.' });
  }
}

/** Each path's script of answers, by attempt; past its end, `ok`. */
const scripts = new Map<string, Answer[]>();
const hits = new Map<string, number>();
let baseUrl = '';
const server = createServer((req, res) => {
  const path = (req.url ?? '').replace(/^\/v2/, '').split('?')[0]!;
  const hit = (hits.get(path) ?? 0) + 1;
  hits.set(path, hit);
  req.resume();
  req.once('end', () => answer(res, scripts.get(path)?.[hit - 1] ?? 'ok', hit));
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** A token each time it is asked, every second one as a promise (a token being fetched); a refused one is renewed. */
function authorizer(): V2Authorizer & { asked: number } {
  let asked = 0;
  const grantOf = (n: number): Grant => ({ token: `t${n}`, apiUrl: undefined, authorization: `Bearer a.b.t${n}` });
  return {
    get asked() {
      return asked;
    },
    grantFor: () => (++asked % 2 === 0 ? Promise.resolve(grantOf(asked)) : grantOf(asked)),
    renewable: () => true,
  } as unknown as V2Authorizer & { asked: number };
}

/** What the gate was told: tokens taken at once and their ends, schedules, 429 pauses, budget corrections. */
interface GateLog {
  admitted: number;
  ended: number;
  scheduled: number;
  penalties: number[];
  remaining: number[];
}

/** A gate that admits every call at once (a token always at hand), or one that schedules every call (`task()` when let through). */
function gateOf(way: 'at once' | 'scheduled', log: GateLog): OutboundGate {
  const told = {
    penalize: (_c: unknown, _t: unknown, ms: number) => void log.penalties.push(ms),
    remaining: (_c: unknown, _t: unknown, left: number) => void log.remaining.push(left),
  };
  if (way === 'scheduled') return { schedule: (_c, _t, task) => (log.scheduled++, task()), ...told };
  return {
    schedule: () => Promise.reject(new Error('scheduled although admitted at once')),
    admitNow: () => {
      log.admitted++;
      return () => void log.ended++;
    },
    ...told,
  };
}

/** One call through one way: how it ended, as the caller, v2, the observers and the gate saw it. */
async function callThrough(way: 'at once' | 'scheduled', run: number, method: V2Method, script: Answer[]) {
  const path = `/r${run}/${way === 'at once' ? 'now' : 'later'}` as const;
  scripts.set(path, script);
  const log: GateLog = { admitted: 0, ended: 0, scheduled: 0, penalties: [], remaining: [] };
  const observed: V2CallObservation[] = [];
  const ownTime = new OwnTime();
  const client = new V2Client({
    baseUrl,
    authorizer: authorizer(),
    gate: gateOf(way, log),
    connections: 2,
    timeoutMs: 3000,
    maxAttempts: 2,
  });
  try {
    const outcome = await client
      .call(
        { apiKey: 'key', apiSecret: 'secret' },
        { target: v2Route(method, path).at(), onResult: (o) => observed.push(o), ownTime, ...(method === 'GET' ? {} : { body: { run } }) },
      )
      .then(
        (value) => ({ answered: value }),
        (error: unknown) => ({ failed: toV1Error(error).toBody(), kind: (error as Error).name }),
      );
    const observations = observed.map(({ method: m, path: p, status, undo, trackingId, limitKind }) => ({
      method: m,
      path: p.replace(/\/(now|later)$/, ''),
      status,
      undo,
      trackingId,
      limitKind,
    }));
    // Every attempt admitted at once is told its end once, as `schedule` learns it of its task's promise.
    const attempts = way === 'at once' ? log.admitted : log.scheduled;
    if (way === 'at once') expect(log.ended).toBe(log.admitted);
    const waitsOpen = (ownTime as unknown as { waits: number }).waits;
    return { outcome, hits: hits.get(path) ?? 0, attempts, observations, penalties: log.penalties, remaining: log.remaining, waitsOpen };
  } finally {
    await client.close();
  }
}

describe('the v2 client: an attempt admitted at once and one scheduled by the gate end alike', () => {
  it('over scripted answers of every kind, for reads and writes', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<V2Method>('GET', 'POST', 'DELETE'),
        fc.array(fc.constantFrom(...ANSWERS), { minLength: 1, maxLength: 3 }),
        async (method, script) => {
          run++;
          const [now, later] = [await callThrough('at once', run, method, script), await callThrough('scheduled', run, method, script)];
          expect(now).toEqual(later);
          expect(now.waitsOpen).toBe(0);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a gate spread from the open gate keeps its own schedule: a refusal there sends nothing', async () => {
    const refusing: OutboundGate = { ...openGate, schedule: () => Promise.reject(new RateLimitExceeded('deadline', 'light', 1_000)) };
    scripts.set('/refused', []);
    const client = new V2Client({ baseUrl, authorizer: authorizer(), gate: refusing, connections: 1, timeoutMs: 3000, maxAttempts: 2 });
    const error = await client
      .call({ apiKey: 'key', apiSecret: 'secret' }, { target: v2Route('GET', '/refused').at() })
      .catch((e: unknown) => e);
    await client.close();
    expect(error).toBeInstanceOf(RateLimitExceeded);
    expect(hits.get('/refused') ?? 0).toBe(0);
  });

  it('a gate that takes no token at once (admitNow undefined) is asked to schedule: its refusal sends nothing', async () => {
    let scheduled = 0;
    const gate: OutboundGate = {
      admitNow: () => undefined,
      schedule: () => (scheduled++, Promise.reject(new RateLimitExceeded('queue-full', 'light', 1_000))),
      penalize: () => {},
    };
    const client = new V2Client({ baseUrl, authorizer: authorizer(), gate, connections: 1, timeoutMs: 3000, maxAttempts: 2 });
    const error = await client
      .call({ apiKey: 'key', apiSecret: 'secret' }, { target: v2Route('POST', '/queued').at(), body: {} })
      .catch((e: unknown) => e);
    await client.close();
    expect(error).toBeInstanceOf(RateLimitExceeded);
    expect(scheduled).toBe(1);
    expect(hits.get('/queued') ?? 0).toBe(0);
  });
});
