import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readCalls } from '../../src/compare/calls.js';
import { FAILED_CALL_LINES } from '../../src/ops/log-volume.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';

/**
 * What a client with no credentials can make a gateway process write to its log. About 12,600
 * requests, none of them a proven call: random keys and secrets, the owner's key with wrong
 * secrets, keys with no secret, the owner's own secret under mistyped names and in a JSON body (a client's mistake an
 * attacker can repeat), parameters missing or of the wrong type, 8,000-character paths, a 1 MB
 * field, 990 fields of 500 characters, and bytes that are no HTTP at all. Counted in the log file
 * the gateway wrote:
 *
 * - at most one line per request, each at most LINE_BOUND bytes, whatever the request held (a 1
 *   MB field wrote a 1 MB line); none at error level (a missing parameter wrote a second line,
 *   with a stack, for every request, outside every budget);
 * - every line but a few of the gateway's own is a call's line in the budget or a summary, so the
 *   bytes are bounded by the budget too;
 * - lines of refused calls at most the budget's burst plus its rate for the time the flood ran,
 *   and every call held back counted in a summary line: written plus held back is every call;
 * - the owner's secret nowhere in the file;
 * - the record file (V1_RECORD_FILE) keeps the same sample as the log: the flood neither fills it
 *   nor rotates out the owner's own call recorded before it.
 */
const KEY = 'logvolumekey0000000000';
const SECRET = 'logvolumesecret-0123456789abcdefghij';
/** The most bytes of one log line: a top-level field's 2 KiB budget for the params, 256 for the path, the line's own fields. */
const LINE_BOUND = 4 * 1024;
/** The lines a gateway writes of its own, whatever it is sent: its start (settings, listening). */
const OWN_LINES = 10;

let gateway: GatewayProcess;
let logFile: string;
let recordFile: string;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'v1gate-log-volume-'));
  logFile = join(dir, 'gateway.log');
  recordFile = join(dir, 'calls.jsonl');
  gateway = await startGatewayProcess({
    LOG_LEVEL: 'info',
    LOG_FILE: logFile,
    V1_RECORD_FILE: recordFile,
    V1_KEEP_ALIVE: 'on',
    SANDBOX_API_KEY: KEY,
    SANDBOX_API_SECRET: SECRET,
  });
  pool = new Pool(gateway.url, { connections: 24, pipelining: 4 });
}, 60_000);
afterAll(async () => {
  await pool?.close();
  await gateway?.kill();
});

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** Sends every request, `concurrency` at a time; returns how many reached the gateway's HTTP routes (all answered). */
async function flood(requests: readonly (() => Promise<unknown>)[], concurrency = 24): Promise<number> {
  let next = 0;
  let answered = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests.length) {
        await requests[next++]!();
        answered++;
      }
    }),
  );
  return answered;
}

/** undici's pool rather than fetch: the flood's own client must not take the CPU the gateway is measured on. */
let pool: Pool;
const post =
  (path: string, body: string, headers: Record<string, string> = FORM) =>
  async () => {
    const response = await pool.request({ method: 'POST', path, headers, body, headersTimeout: 60_000, bodyTimeout: 60_000 });
    await response.body.dump();
  };

/** Bytes that are no HTTP request: answered by the server itself, never reaching a route. */
const garbage = () => async () =>
  await new Promise<void>((resolve) => {
    const socket = connect(Number(new URL(gateway.url).port), '127.0.0.1');
    socket.on('error', () => resolve());
    socket.on('close', () => resolve());
    socket.on('connect', () => socket.end(`\u0000\u00ff NOT HTTP ${'x'.repeat(200)}\r\n\r\n`));
    socket.resume();
  });

const random = () => randomBytes(12).toString('base64url');

function times(count: number, make: (i: number) => () => Promise<unknown>): (() => Promise<unknown>)[] {
  return Array.from({ length: count }, (_, i) => make(i));
}

describe('12,570 requests with no proven credentials', () => {
  it('write at most one bounded line each, none at error level, the refused calls within their budget, every one accounted for, no secret', async () => {
    const v1Calls = [
      ...times(1_000, () => post('/v1/user/get', `api_key=${random()}&api_secret=${random()}&id=${random()}`)),
      ...times(2_000, () => post('/v1/meeting/list', `api_key=${KEY}&api_secret=${random()}&host_id=x`)),
      ...times(4_000, () => post('/v1/user/get', `api_key=${random()}&id=${random()}`)),
      ...times(1_500, () => post('/v1/meeting/create', `api_key=${random()}&api_secret=${random()}&topic=t`)),
      ...times(1_500, () => post('/v1/user/list', `api_key=${random()}&api_secret=${random()}&page_size=${random()}`)),
      ...times(500, () => post(`/v1/${'a'.repeat(8_000)}`, `api_key=${random()}`)),
      ...times(500, () => post('/v1/user/get', `api_key=${KEY}&api-secret=${SECRET}&api_secret%00=${SECRET}&api_secret =${SECRET}`)),
      ...times(500, () => post('/v1/user/get', JSON.stringify({ api_key: KEY, api_secret: SECRET }), { 'content-type': 'text/plain' })),
      ...times(20, () => post('/v1/user/create', `api_key=${random()}&api_secret=${random()}&topic=${'b'.repeat(1_000_000)}`)),
      ...times(50, () =>
        post('/v1/user/get', `api_key=${random()}&${Array.from({ length: 990 }, (_, i) => `f${i}=${'c'.repeat(500)}`).join('&')}`),
      ),
    ];
    await post('/v1/user/checkemail', `api_key=${KEY}&api_secret=${SECRET}&email=owner-before-the-flood%40example.com`)();
    const started = Date.now();
    const sent = (await flood([...v1Calls, ...times(1_000, garbage)])) - 1_000;
    const seconds = (Date.now() - started) / 1000;
    expect(sent).toBe(v1Calls.length);
    const tally = () => {
      const text = readFileSync(logFile, 'utf8');
      const lines = text.split('\n').filter(Boolean);
      const parsed = lines.map((line) => JSON.parse(line) as { msg: string; level: number; heldBack?: number });
      const written = parsed.filter((line) => line.msg === 'v1 call failed').length;
      const summaries = parsed.filter((line) => line.msg === 'v1 call lines held back');
      const heldBack = summaries.reduce((sum, line) => sum + line.heldBack!, 0);
      const others = parsed.filter(
        (line) => line.msg !== 'v1 call failed' && line.msg !== 'v1 call lines held back' && line.msg !== 'v1 call',
      );
      return { text, lines, parsed, written, heldBack, summaries: summaries.length, others };
    };
    // The last summary is written a second after the first line it holds back (later on a loaded
    // machine): every refused call is accounted for once it is, by a line or in a summary.
    await vi.waitFor(
      () => {
        const { written, heldBack } = tally();
        expect(written + heldBack).toBe(sent);
      },
      { timeout: 60_000, interval: 250 },
    );
    const { text, lines, parsed, written, heldBack, summaries, others } = tally();
    const longest = Math.max(...lines.map((line) => Buffer.byteLength(line)));
    console.log(
      `${sent} refused v1 calls and 1,000 malformed requests in ${seconds.toFixed(1)} s: ${lines.length} log lines, ` +
        `${text.length} bytes (${(text.length / (sent + 1_000)).toFixed(1)} per request), the longest ${longest} bytes; ${heldBack} held back`,
    );
    expect(lines.length).toBeLessThanOrEqual(sent + 1_000);
    expect(longest).toBeLessThanOrEqual(LINE_BOUND);
    expect(text.length / (sent + 1_000)).toBeLessThanOrEqual(LINE_BOUND);
    expect(written + heldBack).toBe(sent);
    const budget = FAILED_CALL_LINES.all.burst + Math.ceil(FAILED_CALL_LINES.all.ratePerSecond * seconds);
    expect(written).toBeLessThanOrEqual(budget);
    // Nothing outside the budget but the gateway's own few lines (its start) and one summary a second at most.
    expect(parsed.filter((line) => line.level >= 50)).toEqual([]);
    expect(others.length, others.map((line) => line.msg).join(', ')).toBeLessThanOrEqual(OWN_LINES);
    expect(summaries).toBeLessThanOrEqual(Math.ceil(seconds) + 2);
    expect(text.length).toBeLessThanOrEqual((budget + Math.ceil(seconds) + 2 + OWN_LINES + 1) * LINE_BOUND);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(encodeURIComponent(SECRET));

    const records = readCalls(recordFile);
    expect(records.find((call) => call.params.email === 'owner-before-the-flood@example.com')).toBeDefined();
    expect(records.filter((call) => call.answer !== undefined && (call.answer as { error?: unknown }).error !== undefined)).toHaveLength(
      written,
    );
    expect(readFileSync(recordFile, 'utf8')).not.toContain(SECRET);
  }, 300_000);
});
