import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AnswerParser } from '../../src/compare/parse-off-loop.js';
import { listen, type Listening } from '../support/listen.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';
import { memoryOf, unlimited } from './hostile-support.js';

/**
 * A primary v1 whose answers are megabytes of XML, behind a gateway process in shadow mode that
 * samples every read: an answer past SHADOW_MAX_COMPARED_BYTES reaches the client whole but is
 * neither kept nor parsed, and is counted as too large; one within it is parsed on the parser's
 * own thread, never on the event loop; the process's memory stays bounded either way.
 */
const KEY = 'shadowanswerskey000000';
const SECRET = 'shadowanswerssecret00000000000000';
const BOUND = 1024 * 1024;

/** v1's XML answer to user/list with `users` users, as the primary would send it. */
function usersXml(users: number): string {
  const items = Array.from(
    { length: users },
    (_, i) =>
      `<user><id>user${String(i).padStart(8, '0')}</id><email>user${i}@example.com</email><first_name>Ann</first_name><last_name>Lee</last_name><type>1</type></user>`,
  ).join('');
  return `<?xml version="1.0" encoding="UTF-8"?><response><page_count>1</page_count><page_number>1</page_number><page_size>${users}</page_size><total_records>${users}</total_records><users>${items}</users></response>`;
}

const LARGE = usersXml(18_000); // about 2.4 MB, past the bound
const WITHIN = usersXml(6_000); // about 0.8 MB, within it

let primary: Listening;
let gateway: GatewayProcess;
let answer = LARGE;
beforeAll(async () => {
  primary = await listen(() => new Response(answer, { headers: { 'content-type': 'application/xml; charset=UTF-8' } }));
  gateway = await startGatewayProcess({
    ...unlimited({ key: KEY, secret: SECRET }),
    V1_PRIMARY_URL: primary.url,
    SHADOW_SAMPLE: '1',
    SHADOW_MAX_COMPARED_BYTES: String(BOUND),
  });
}, 60_000);
afterAll(async () => {
  await gateway?.kill();
  await primary?.close();
});

const listUsers = async () => {
  const response = await fetch(`${gateway.url}/v1/user/list`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `api_key=${KEY}&api_secret=${SECRET}&data_type=XML&page_size=300`,
    signal: AbortSignal.timeout(60_000),
  });
  return response.text();
};

/** The shadow's call counts by outcome, from /metrics. */
async function outcomes(): Promise<Record<string, number>> {
  const text = await (await fetch(`${gateway.url}/metrics`)).text();
  return Object.fromEntries(
    [...text.matchAll(/^v1gate_shadow_calls_total\{outcome="(\w+)"\} (\d+)$/gm)].map(([, outcome, n]) => [outcome!, Number(n)]),
  );
}

describe('primary answers past SHADOW_MAX_COMPARED_BYTES', () => {
  it('reach the client whole, are counted as too large and never parsed, and the memory stays bounded', async () => {
    answer = LARGE;
    expect(Buffer.byteLength(LARGE)).toBeGreaterThan(2 * BOUND);
    await listUsers(); // the first call's one-off costs (pools, code) are not the attack's
    const memory = memoryOf(gateway.pid);
    for (let i = 0; i < 20; i++) expect(await listUsers()).toBe(LARGE);
    await vi.waitFor(async () => expect((await outcomes()).too_large).toBe(21), { timeout: 30_000, interval: 200 });
    const counts = await outcomes();
    expect(counts.compared).toBe(0);
    expect(counts.error).toBe(0);
    // 20 answers of 2.4 MB kept and parsed on the loop grew the process from 130 to 277 MB; passed through, by 10 MiB here.
    expect(memoryOf(gateway.pid).rssMiB - memory.rssMiB).toBeLessThan(40);
  });
});

describe('primary answers within the bound', () => {
  it('are compared, each parsed off the event loop, and the memory stays bounded', async () => {
    answer = WITHIN;
    expect(Buffer.byteLength(WITHIN)).toBeLessThan(BOUND);
    const before = await outcomes();
    const memory = memoryOf(gateway.pid);
    for (let i = 0; i < 10; i++) expect(await listUsers()).toBe(WITHIN);
    await vi.waitFor(async () => expect((await outcomes()).compared).toBe(before.compared! + 10), { timeout: 60_000, interval: 200 });
    expect((await outcomes()).too_large).toBe(before.too_large);
    // The parser's thread has a heap of its own, capped at 128 MiB (10 such answers grew the process by 91 MiB); nothing is kept per call.
    expect(memoryOf(gateway.pid).rssMiB - memory.rssMiB).toBeLessThan(180);
  });
});

describe('the answer parser', () => {
  const parser = new AnswerParser();
  afterAll(() => parser.close());

  it('leaves the event loop free while it parses: a timer set beside a 2.4 MB parse fires first, and the loop turns all along', async () => {
    await parser.parse('<response><ok>1</ok></response>', 'application/xml'); // the thread is started
    let settled = false;
    let timerFiredFirst: boolean | undefined;
    let turns = 0;
    const parsed = parser.parse(LARGE, 'application/xml').finally(() => (settled = true));
    setTimeout(() => (timerFiredFirst = !settled), 0);
    // A parse on the loop would run to its end before any of these turns.
    while (!settled) {
      await nextTurn();
      turns++;
    }
    const value = (await parsed).value as { users: unknown[] };
    expect(value.users).toHaveLength(18_000);
    expect(timerFiredFirst).toBe(true);
    expect(turns).toBeGreaterThan(2);
  });

  it('parses as the comparison reads answers, and a malformed one as text', async () => {
    expect(await parser.parse('<response><users><user><id>a</id></user></users></response>', 'application/xml')).toEqual({
      format: 'XML',
      value: { users: [{ id: 'a' }] },
    });
    expect(await parser.parse('{"a":1}', 'application/json')).toEqual({ format: 'JSON', value: { a: 1 } });
    expect(await parser.parse('<response><open>', 'application/xml')).toEqual({ format: 'text', value: '<response><open>' });
  });

  it('fails a parse that would pass its heap cap, and parses the next on a new thread', async () => {
    const small = new AnswerParser({ maxHeapMiB: 8 });
    try {
      await expect(small.parse(usersXml(60_000), 'application/xml')).rejects.toThrow();
      expect(await small.parse('{"a":1}', 'application/json')).toEqual({ format: 'JSON', value: { a: 1 } });
    } finally {
      await small.close();
    }
  });
});
