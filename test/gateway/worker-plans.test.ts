import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxToken } from '../../scripts/sandbox-token.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';

/**
 * WORKERS=2 over the embedded sandbox, which runs in the primary: a worker finds a pair's account
 * in the primary's sandbox account list, and sizes the account's v2 budgets by the account's own
 * plan (PUT /sandbox/accounts/{id}/rate-limit-plan), as one process over its embedded sandbox
 * does, not by OUTBOUND_DEFAULT_PLAN. The call is fan-out-plans.test.ts's: /report/getuserreport
 * over six meetings asks for six Heavy participant reports after the meeting list; at a tenth of
 * the limits, 4 s of outbound wait admit five at Pro and six at Business, so the default plan (Pro)
 * refuses it at once (one v2 call sent) and the account's (Business) answers it (seven sent).
 * Arithmetic, not timing: the refusal is decided before any of the six is sent.
 */

const pair = { key: 'worker-plans-key', secret: 'worker-plans-secret-0123456789abcdef' };
const MARCH = { from: '2024-03-01', to: '2024-03-31' };
let gateway: GatewayProcess;
let host: string;

/** A v2 call to the primary's sandbox through a worker, as the account's OAuth app. */
async function v2(token: string, method: string, path: string, body?: unknown): Promise<any> {
  const answer = await fetch(`${gateway.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(answer.ok, `${method} ${path}: ${answer.status}`).toBe(true);
  return answer.json();
}

beforeAll(async () => {
  gateway = await startGatewayProcess(
    {
      WORKERS: '2',
      V1_RATE_LIMITS: 'off',
      V2_RATE_LIMITS: 'on',
      RATE_LIMIT_SCALE: '0.1',
      OUTBOUND_MAX_WAIT_MS: '4000',
      OUTBOUND_DEFAULT_PLAN: 'pro',
      UPSTREAM_MAX_ATTEMPTS: '1',
      SANDBOX_RATE_LIMITS: 'off',
      SANDBOX_API_KEY: pair.key,
      SANDBOX_API_SECRET: pair.secret,
      LOG_LEVEL: 'silent',
    },
    { startTimeoutMs: 60_000 },
  );
  const token = await sandboxToken(gateway.url, pair.key, pair.secret);
  host = (await v2(token, 'GET', '/v2/users/me')).id as string;
  for (const day of ['04', '08', '11', '15', '18', '25']) {
    const start_time = `2024-03-${day}T09:00:00Z`;
    const meeting = await v2(token, 'POST', `/v2/users/${host}/meetings`, { topic: `Held ${day}`, type: 2, start_time, duration: 30 });
    await v2(token, 'POST', `/sandbox/meetings/${meeting.id}/happen`, { start_time, duration_minutes: 30 });
  }
}, 90_000);
afterAll(() => gateway?.kill());

/** The report on a connection of its own (the cluster hands each to the next worker), and the worker that answered. */
async function report(): Promise<{ body: unknown; v2Calls: string | null; worker: string | null }> {
  const form = new URLSearchParams({ api_key: pair.key, api_secret: pair.secret, user_id: host, ...MARCH });
  const answer = await fetch(`${gateway.url}/v1/report/getuserreport`, { method: 'POST', body: form, headers: { connection: 'close' } });
  return { body: await answer.json(), v2Calls: answer.headers.get('x-v2-calls'), worker: answer.headers.get('x-v1gate-worker') };
}

describe('WORKERS=2: a sandbox account on a larger plan (business) than OUTBOUND_DEFAULT_PLAN (pro)', () => {
  it('is held to its own plan by each worker, as one process holds it', async () => {
    const listed = async () =>
      (
        (await (await fetch(`${gateway.url}/sandbox/accounts`)).json()) as {
          accounts: { id: string; api_key: string; rate_limit_plan?: string }[];
        }
      ).accounts.find((a) => a.api_key === pair.key)!;
    const account = await listed();
    expect(account.rate_limit_plan).toBeUndefined();
    const set = await fetch(`${gateway.url}/sandbox/accounts/${account.id}/rate-limit-plan`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ plan: 'business' }),
    });
    expect(set.status).toBe(200);
    expect((await listed()).rate_limit_plan).toBe('business');

    // Two connections, which the cluster hands to its two workers in turn: each finds the account's plan.
    const answers = [await report(), await report()];
    for (const answer of answers) {
      expect(answer.body, JSON.stringify(answer.body)).toMatchObject({ meetings: expect.any(Array) });
      expect((answer.body as { meetings: unknown[] }).meetings).toHaveLength(6);
      expect(answer.v2Calls).toBe('7'); // the list, then six participant reports
    }
    expect(new Set(answers.map((a) => a.worker)).size).toBe(2);
  });
});
