import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rememberSecret } from '../support/gateway.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';
import { memoryOf } from './hostile-support.js';

/**
 * The embedded sandbox answers on the public listener (`/v2`, `/oauth/token`, `/rec/download`), as
 * the service does on the internet: to anyone. A gateway in its own process, the sandbox's own
 * limits on, flooded by clients that hold no access token and no client secret. Counted: every
 * answer a refusal, the process's memory and CPU per request small, the sandbox's data unchanged,
 * and the OAuth app whose client id the flood names still issued its whole burst of tokens.
 */
const OWNER = { key: 'sandbox-anon-key', secret: 'sandbox-anon-secret-0123456789' };
const APP = { id: 'sandbox-anon-client', secret: 'sandbox-anon-client-secret-0123456789' };
/** What the refused requests may grow the process's peak memory by: their bodies are never read, so little more than a loaded machine's collector leaves. */
const GROWTH_BOUND_MIB = 64;
/** CPU a refused request may cost on average, in ms (a token lookup and a 401: well under one is seen). */
const CPU_PER_REQUEST_MS = 5;
/** The sandbox's token requests per app (src/sandbox/oauth/routes.ts): a burst of ten. */
const TOKEN_BURST = 10;

let gateway: GatewayProcess;
let pool: Pool;

beforeAll(async () => {
  rememberSecret(OWNER.secret);
  rememberSecret(APP.secret);
  gateway = await startGatewayProcess({
    LOG_LEVEL: 'silent',
    SANDBOX_API_KEY: OWNER.key,
    SANDBOX_API_SECRET: OWNER.secret,
    SANDBOX_OAUTH_CLIENT_ID: APP.id,
    SANDBOX_OAUTH_CLIENT_SECRET: APP.secret,
    SANDBOX_RATE_LIMITS: 'spec',
  });
  pool = new Pool(gateway.url, { connections: 16, pipelining: 1 });
}, 60_000);
afterAll(async () => {
  await pool?.close();
  await gateway?.kill();
});

interface Sent {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** The status of a request whose connection the gateway closed while its body was still being sent (refused unread). */
const CLOSED = 0;

/** Sends every request, 16 at a time; each answer's status, in the order sent. */
async function flood(requests: readonly Sent[]): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < requests.length) {
        const index = next++;
        const { method, path, headers, body } = requests[index]!;
        try {
          const answer = await pool.request({ method, path, headers, body, headersTimeout: 60_000, bodyTimeout: 60_000 });
          await answer.body.text();
          statuses[index] = answer.statusCode;
        } catch {
          statuses[index] = CLOSED;
        }
      }
    }),
  );
  return statuses;
}

/** The process's CPU time so far, in ms (/proc/<pid>/stat: user and system, in clock ticks of 10 ms). */
function cpuMs(): number {
  const fields = readFileSync(`/proc/${gateway.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const random = () => randomBytes(24).toString('base64url');
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const tokenPath = (account: string) => `/oauth/token?grant_type=account_credentials&account_id=${account}`;

/** An access token of the owner's app for `account`, or the token endpoint's refusal. */
async function ownerToken(account: string): Promise<{ status: number; token?: string }> {
  const answer = await pool.request({ method: 'POST', path: tokenPath(account), headers: { authorization: basic(APP.id, APP.secret) } });
  const body = (await answer.body.json()) as { access_token?: string };
  return { status: answer.statusCode, ...(body.access_token ? { token: body.access_token } : {}) };
}

async function accountId(): Promise<string> {
  // The app's account is the owner's: read through v1 as the owner.
  const answer = await pool.request({
    method: 'POST',
    path: '/v1/user/get',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `api_key=${OWNER.key}&api_secret=${OWNER.secret}&id=me`,
  });
  const user = (await answer.body.json()) as { account_id?: string };
  if (!user.account_id) throw new Error(`no account id in ${JSON.stringify(user)}`);
  return user.account_id;
}

describe('anonymous requests to the embedded sandbox on the public listener', () => {
  it('are refused before any state is kept: each a 401, bodies unread, memory and CPU per request small', async () => {
    const before = { memory: memoryOf(gateway.pid), cpu: cpuMs() };
    const megabyte = Buffer.alloc(1024 * 1024, ' ');
    const json = { 'content-type': 'application/json' };
    const requests: Sent[] = [
      ...Array.from({ length: 500 }, () => ({ method: 'GET', path: `/v2/users/${random()}` })),
      ...Array.from({ length: 500 }, () => ({ method: 'GET', path: '/v2/users', headers: { authorization: `Bearer ${random()}` } })),
      ...Array.from({ length: 300 }, () => ({ method: 'GET', path: `/v2/users?access_token=${random()}` })),
      ...Array.from({ length: 300 }, () => ({
        method: 'POST',
        path: '/v2/users',
        headers: { ...json, authorization: `Bearer eyJhbGciOiJIUzI1NiJ9.${random()}.${random()}` },
        body: JSON.stringify({ action: 'create', user_info: { email: `${random()}@x.example`, type: 1 } }),
      })),
      ...Array.from({ length: 64 }, () => ({
        method: 'POST',
        path: '/v2/users',
        headers: { ...json, authorization: `Bearer ${random()}` },
        body: megabyte,
      })),
      ...Array.from({ length: 500 }, () => ({
        method: 'GET',
        path: `/rec/download/${random()}`,
        headers: { authorization: `Bearer ${random()}` },
      })),
    ];
    const statuses = await flood(requests);
    const cpu = cpuMs() - before.cpu;
    // A megabyte sent after the 401 meets a closed connection: the gateway answered without reading it.
    requests.forEach((request, i) => expect(request.body === megabyte ? [401, CLOSED] : [401]).toContain(statuses[i]));
    const growth = memoryOf(gateway.pid).peakMiB - before.memory.peakMiB;
    expect(growth).toBeLessThan(GROWTH_BOUND_MIB);
    expect(cpu / requests.length).toBeLessThan(CPU_PER_REQUEST_MS);
    console.log(
      `${requests.length} anonymous sandbox requests: peak memory +${growth.toFixed(1)} MiB, ` +
        `${cpu} ms of gateway CPU (${(cpu / requests.length).toFixed(2)} per request)`,
    );

    // None of the creates got in: the account still has its owner alone.
    const { token } = await ownerToken(await accountId());
    const users = await pool.request({ method: 'GET', path: '/v2/users', headers: { authorization: `Bearer ${token}` } });
    expect(((await users.body.json()) as { total_records: number }).total_records).toBe(1);
  }, 120_000);

  it('a flood of wrong client secrets naming the app’s client id spends none of its token budget', async () => {
    const account = await accountId();
    // Wait out what the test above spent of the app's burst (one token a second).
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const wrong = Array.from({ length: 500 }, () => ({
      method: 'POST',
      path: tokenPath(account),
      headers: { authorization: basic(APP.id, random()) },
    }));
    const form = Array.from({ length: 100 }, () => ({
      method: 'POST',
      path: '/oauth/token',
      headers: { authorization: basic(APP.id, random()), 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=account_credentials&account_id=${account}&${'x'.repeat(64 * 1024)}`,
    }));
    expect(new Set(await flood([...wrong, ...form]))).toEqual(new Set([400]));
    // The app's whole burst is still there: ten tokens at once, and the eleventh limited.
    const asked = await Promise.all(Array.from({ length: TOKEN_BURST + 1 }, () => ownerToken(account)));
    const statuses = asked.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(TOKEN_BURST);
  }, 60_000);
});
