import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';
import { signedHeaders } from '../support/webhook-receivers.js';
import { memoryOf } from './hostile-support.js';

/**
 * The webhook intake (`/webhooks/v2`, its dead letters) and the status page's replay, flooded by
 * clients that hold neither the v2 app's secret token nor the status token: events with no
 * signature, a stale one, a random one (some of them 4 MB), the secret token itself sent as the
 * sunset verification token's header, dead-letter lists and replays with random tokens and ids.
 * A gateway in its own process, with a journal file, a log file and a receiver. Counted: the
 * journal does not grow by a byte, the receiver is sent nothing, the log gets no line, the process's
 * memory and CPU per request stay small; then a real event is journaled and delivered as before.
 */
const TOKEN = 'webhook-floods-secret-token';
const STATUS_TOKEN = 'webhook-floods-status-token-0123456789';
const ACCOUNT = 'acct-floods';
/**
 * What all the refused requests together may grow the process's peak memory by. A forged signature
 * with a fresh timestamp is only found out by hashing its body, so the 4 MB bodies are read, 16 at
 * once here, up to the pool of bytes in flight (64 MiB), and none is kept: the bound is that pool
 * and what a loaded machine's collector has not yet given back, whatever the number of requests.
 */
const GROWTH_BOUND_MIB = 160;
/** CPU a refused request may cost the gateway on average, in ms: a token's hash and an answer (about 0.1 ms is seen). */
const CPU_PER_REQUEST_MS = 5;

let gateway: GatewayProcess;
let dir: string;
let receiver: Server;
let delivered = 0;
let pool: Pool;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'v1gate-webhook-floods-'));
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      delivered++;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as { port: number }).port;
  writeFileSync(join(dir, 'subs.json'), JSON.stringify([{ api_key: 'k', url: `http://127.0.0.1:${port}/hook`, account_id: ACCOUNT }]));
  gateway = await startGatewayProcess({
    LOG_LEVEL: 'info',
    LOG_FILE: join(dir, 'gateway.log'),
    V1_WEBHOOKS_FILE: join(dir, 'subs.json'),
    V1_WEBHOOKS_JOURNAL: join(dir, 'journal'),
    V1_WEBHOOKS_ANY_PORT: '1',
    V2_WEBHOOK_SECRET_TOKEN: TOKEN,
    STATUS_TOKEN,
  });
  pool = new Pool(gateway.url, { connections: 16, pipelining: 1 });
}, 60_000);
afterAll(async () => {
  await pool?.close();
  await gateway?.kill();
  receiver?.close();
});

const event = (uuid: string) => ({
  event: 'meeting.started',
  event_ts: Date.now(),
  payload: { account_id: ACCOUNT, object: { id: 1, uuid, host_id: 'h' } },
});
const random = () => randomBytes(18).toString('base64url');

interface Sent {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

const seconds = (ms: number) => String(Math.floor(ms / 1000));
/** Signature headers of no secret: well formed, dated now (or `at`), matching nothing. */
const forged = (at = Date.now()) => ({ 'x-zm-request-timestamp': seconds(at), 'x-zm-signature': `v0=${randomBytes(32).toString('hex')}` });
const bearer = (authorization: string) => ({ authorization });

/** Sends every request, 16 at a time; returns each answer's status and body. */
async function flood(requests: readonly Sent[]): Promise<{ status: number; body: string }[]> {
  const answers: { status: number; body: string }[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < requests.length) {
        const { method, path, headers: given, body } = requests[next++]!;
        const headers: Record<string, string> = { 'content-type': 'application/json', ...given };
        const response = await pool.request({ method, path, headers, body, headersTimeout: 60_000, bodyTimeout: 60_000 });
        answers.push({ status: response.statusCode, body: await response.body.text() });
      }
    }),
  );
  return answers;
}

/** The process's CPU time so far, in ms (/proc/<pid>/stat: user and system, in clock ticks of 10 ms). */
function cpuMs(): number {
  const fields = readFileSync(`/proc/${gateway.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const sizeOf = (file: string) => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};

describe('floods without the tokens', () => {
  it('journal nothing, deliver nothing, log nothing, and cost little; a real event is delivered afterwards', async () => {
    const journal = join(dir, 'journal');
    const log = join(dir, 'gateway.log');
    const before = { journal: sizeOf(journal), log: sizeOf(log), memory: memoryOf(gateway.pid), cpu: cpuMs() };
    const body = JSON.stringify(event('flood'));
    const huge = Buffer.alloc(4 * 1024 * 1024 - 1, ' ');
    const requests: Sent[] = [
      ...Array.from({ length: 1_000 }, () => ({ method: 'POST' as const, path: '/webhooks/v2', body })),
      ...Array.from({ length: 500 }, () => ({ method: 'POST' as const, path: '/webhooks/v2', headers: bearer(TOKEN), body })),
      ...Array.from({ length: 500 }, () => ({
        method: 'POST' as const,
        path: '/webhooks/v2',
        // Older than the journal remembers what it took (a day): refused from its headers.
        headers: forged(Date.now() - 25 * 3_600_000),
        body,
      })),
      ...Array.from({ length: 1_500 }, () => ({ method: 'POST' as const, path: '/webhooks/v2', headers: forged(), body })),
      ...Array.from({ length: 20 }, () => ({ method: 'POST' as const, path: '/webhooks/v2', headers: bearer(random()), body: huge })),
      ...Array.from({ length: 20 }, () => ({ method: 'POST' as const, path: '/webhooks/v2', headers: forged(0), body: huge })),
      ...Array.from({ length: 20 }, () => ({ method: 'POST' as const, path: '/webhooks/v2', headers: forged(), body: huge })),
      ...Array.from({ length: 500 }, () => ({ method: 'GET' as const, path: '/webhooks/dead-letters', headers: bearer(random()) })),
      ...Array.from({ length: 500 }, () => ({
        method: 'POST' as const,
        path: `/webhooks/dead-letters/${random()}/replay`,
        headers: bearer(random()),
      })),
      ...Array.from({ length: 1_000 }, () => ({
        method: 'POST' as const,
        path: `/status/dead-letters/${random()}/replay`,
        headers: bearer(`Bearer ${random()}`),
      })),
    ];
    const answers = await flood(requests);
    const cpu = cpuMs() - before.cpu;

    const refusals = answers.map((a) => `${a.status} ${a.body}`);
    expect(new Set(refusals)).toEqual(
      new Set([
        '401 {"error":"x-zm-signature (v0=<hex>) and x-zm-request-timestamp (seconds) are required"}',
        '401 {"error":"x-zm-request-timestamp is older than the 86400 s v1gate remembers the events it took"}',
        '401 {"error":"invalid signature"}',
        '401 {"error":"invalid secret token"}',
        '401 {"error":"a valid STATUS_TOKEN is required"}',
      ]),
    );
    expect(sizeOf(journal)).toBe(before.journal);
    expect(sizeOf(log)).toBe(before.log);
    expect(delivered).toBe(0);
    expect(memoryOf(gateway.pid).peakMiB - before.memory.peakMiB).toBeLessThan(GROWTH_BOUND_MIB);
    console.log(
      `${requests.length} refused webhook and replay requests: ${cpu} ms of gateway CPU (${(cpu / requests.length).toFixed(2)} per request)`,
    );
    expect(cpu / requests.length).toBeLessThan(CPU_PER_REQUEST_MS);

    // The token holder is served as before: its event journaled once and delivered.
    const real = JSON.stringify(event('real'));
    const [accepted] = await flood([{ method: 'POST', path: '/webhooks/v2', headers: signedHeaders(TOKEN, real), body: real }]);
    expect(accepted).toEqual({ status: 200, body: '{"accepted":true,"notifications":1}' });
    expect(sizeOf(journal)).toBeGreaterThan(before.journal);
    for (let waited = 0; delivered === 0 && waited < 20_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(delivered).toBe(1);
  }, 120_000);

  it('the token holder’s malformed, unsupported and replayed events are refused and journal nothing', async () => {
    const journal = join(dir, 'journal');
    const before = sizeOf(journal);
    const signed = (body: string): Sent => ({ method: 'POST', path: '/webhooks/v2', headers: signedHeaders(TOKEN, body), body });
    const taken = signed(JSON.stringify(event('taken')));
    expect((await flood([taken]))[0]!.status).toBe(200);
    // Delivered, so its `done` line is written too: from here the journal only grows if something is taken.
    for (let waited = 0; delivered < 2 && waited < 20_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(delivered).toBe(2);
    const journaled = sizeOf(journal);
    const requests: Sent[] = [
      ...Array.from({ length: 200 }, () => signed(`{"event":${random()}`)),
      ...Array.from({ length: 200 }, () => signed(JSON.stringify({ ...event('x'), event: `meeting.${random()}` }))),
      ...Array.from({ length: 200 }, () =>
        signed(JSON.stringify({ event: 'meeting.started', payload: { nested: Array.from({ length: 1_000 }, () => ({ a: [random()] })) } })),
      ),
      // The same signed request over and over: taken once above, every copy answered 2XX and dropped.
      ...Array.from({ length: 200 }, () => taken),
    ];
    const statuses = (await flood(requests)).map((answer) => answer.status);
    expect(new Set(statuses)).toEqual(new Set([200, 400, 422]));
    expect(statuses.filter((status) => status === 200)).toHaveLength(200);
    expect(sizeOf(journal)).toBe(journaled);
    expect(journaled).toBeGreaterThan(before);
  });
});
