import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningGateway } from '../../src/gateway.js';
import { REGISTRANT_ADDS_PER_DAY } from '../../src/sandbox/rate-limit.js';
import { startFaultUpstream, startGatewayOver, type FaultUpstream } from '../support/fault-upstream.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';
import { expectErrorText } from '../support/error-text.js';
import { parsePrometheusText, sampleValue } from '../support/prometheus.js';
import { postV1 } from '../support/v1-form.js';

/**
 * Whose limit a v2 429 met, through a real gateway with its v2 limits on, over a sandbox that
 * applies today's limits itself (a registrant's three adds a day, one update of a resource at a
 * time), with a proxy between them that can answer a 429 of a text nobody knows.
 */

let sandbox: RunningSandbox;
let faults: FaultUpstream;
let gateway: RunningGateway;
let creds: { api_key: string; api_secret: string };

beforeAll(async () => {
  sandbox = await startSandbox({ limits: { scale: 1 } });
  faults = await startFaultUpstream(`${sandbox.url}/v2`);
  creds = { api_key: sandbox.sandbox.credentials.apiKey, api_secret: sandbox.sandbox.credentials.apiSecret };
});
afterEach(async () => {
  faults.rules.length = 0;
  faults.seen.length = 0;
  await gateway?.close();
});
afterAll(async () => {
  await faults.close();
  await sandbox.close();
});

async function start(env: Record<string, string> = {}) {
  gateway = await startGatewayOver(faults.url, { V2_RATE_LIMITS: 'on', OUTBOUND_MAX_WAIT_MS: '5000', UPSTREAM_MAX_ATTEMPTS: '1', ...env });
}

async function v1(path: string, params: Record<string, string>): Promise<{ body: any; headers: Headers }> {
  const response = await postV1(gateway.url, path, { ...creds, ...params });
  return { body: await response.json(), headers: response.headers };
}

/** v1gate_v2_rate_limited_total{kind} as the gateway's /metrics shows it. */
async function rateLimited(kind: string): Promise<number> {
  const text = await (await fetch(`${gateway.url}/metrics`)).text();
  return sampleValue(parsePrometheusText(text), 'v1gate_v2_rate_limited_total', { kind });
}

const sent = (method: string, path: RegExp) => faults.seen.filter((r) => r.method === method && path.test(r.path));

async function sessionWithRegistration(collection: 'meetings' | 'webinars'): Promise<number> {
  const made = await sandbox.v2('POST', `/users/me/${collection}`, {
    // A scheduled meeting (type 2) or webinar (type 5) that takes registrations, approved at once.
    body: {
      topic: 'Registration',
      type: collection === 'meetings' ? 2 : 5,
      start_time: '2099-01-01T10:00:00Z',
      settings: { approval_type: 0 },
    },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.id as number;
}

/** Ten Light v1 reads of users other than the registrant's host, at once: how long until all are answered (ms). */
async function othersLightReads(): Promise<{ ms: number; failed: unknown[] }> {
  const others = await Promise.all(
    [1, 2].map(async (i) => {
      const made = await sandbox.v2('POST', '/users', {
        body: { action: 'custCreate', user_info: { email: `whose.${i}.${Date.now()}@example.com`, type: 1 } },
      });
      return made.body.id as string;
    }),
  );
  const started = performance.now();
  const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => v1('/user/get', { id: others[i % 2]! })));
  return { ms: performance.now() - started, failed: answers.filter((a) => a.body.error).map((a) => a.body) };
}

describe("a registrant's daily limit is that registrant's", () => {
  it.each(['meetings', 'webinars'] as const)(
    'the fourth registration of one registrant to %s answers a v1 error in the service words; other calls of the category go on at once',
    async (collection) => {
      await start();
      const id = await sessionWithRegistration(collection);
      const register = () =>
        v1(collection === 'meetings' ? '/meeting/register' : '/webinar/register', {
          id: String(id),
          email: `student.${collection}@example.com`,
          first_name: 'Stu',
          last_name: 'Dent',
        });
      for (let i = 0; i < REGISTRANT_ADDS_PER_DAY; i++) expect((await register()).body.error).toBeUndefined();
      const refused = await register();
      const kind = collection === 'meetings' ? 'meeting' : 'webinar';
      expect(refused.body.error).toEqual({
        code: 403,
        message:
          `You have exceeded the daily rate limit of (3) for Add a ${kind} registrant API requests for the registrant ` +
          `(student.${collection}@example.com). You can resume these API requests at GMT 00:00:00.`,
      });
      expectErrorText(refused.body.error, 'resource-limited', ['3', kind, `student.${collection}@example.com`]);
      // Sent once: a limit that lifts at midnight is not tried again.
      expect(sent('POST', new RegExp(`^/${collection}/${id}/registrants$`))).toHaveLength(REGISTRANT_ADDS_PER_DAY + 1);

      // In the same second, other users' Light calls of the account are answered, none held back.
      const others = await othersLightReads();
      expect(others.failed).toEqual([]);
      expect(others.ms).toBeLessThan(1000);
      // Another registrant of the same session is registered at once.
      const other = await v1(collection === 'meetings' ? '/meeting/register' : '/webinar/register', {
        id: String(id),
        email: `other.${collection}@example.com`,
        first_name: 'O',
        last_name: 'Ther',
      });
      expect(other.body.error).toBeUndefined();
      expect(await rateLimited('resource')).toBe(1);
    },
  );
});

describe('a 429 whose text v1gate does not know', () => {
  const unknown = (retryAfter: string) =>
    ({
      kind: 'answer',
      status: 429,
      headers: { 'retry-after': retryAfter, 'content-type': 'application/json' },
      body: '{"code":429,"message":"A limit nobody has written down yet."}',
    }) as const;

  it('pauses nothing past its own Retry-After, and is counted as unknown', async () => {
    await start();
    const owner = sandbox.sandbox.master.ownerId;
    faults.rules.push({ method: 'GET', path: /^\/users\/[^/]+$/, fault: unknown('3600'), times: 1 });
    const refused = await v1('/user/get', { id: owner });
    expect(refused.body.error).toMatchObject({ code: 403 });
    // A long Retry-After (an hour) holds back nobody: the next Light calls reach v2 at once.
    const others = await othersLightReads();
    expect(others.failed).toEqual([]);
    expect(others.ms).toBeLessThan(1000);
    // The refused read, then each other user's (identical reads in flight at once are sent once).
    expect(sent('GET', /^\/users\/[^/]+$/).length).toBeGreaterThanOrEqual(3);
    expect(await rateLimited('unknown')).toBe(1);
  });

  it('a short Retry-After of its own holds the category back that long and no longer', async () => {
    await start();
    const owner = sandbox.sandbox.master.ownerId;
    faults.rules.push({ method: 'GET', path: /^\/users\/[^/]+$/, fault: unknown('1'), times: 1 });
    const refusedAt = performance.now();
    await v1('/user/get', { id: owner });
    const next = await v1('/user/get', { id: owner });
    const waited = performance.now() - refusedAt;
    expect(next.body.error).toBeUndefined();
    // Held back for its second, then sent: not the category's old pause of up to a minute.
    expect(waited).toBeGreaterThanOrEqual(900);
    expect(waited).toBeLessThan(5_000);
  });
});

describe('a concurrency refusal', () => {
  it('is sent again after a short wait within the call, and the update is applied once', async () => {
    await start();
    const owner = sandbox.sandbox.master.ownerId;
    // Another application's update of the same user's settings is still in flight for 400 ms.
    const slow = slowSettingsUpdate(owner, 400);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const answer = await v1('/user/update', { id: owner, enable_cloud_auto_recording: 'true' });
    expect(answer.body.error, JSON.stringify(answer.body)).toBeUndefined();
    expect((await slow).status).toBe(204);
    const attempts = sent('PATCH', /^\/users\/[^/]+\/settings$/);
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(await rateLimited('concurrency')).toBeGreaterThanOrEqual(1);
  });
});

/** A PATCH of the user's settings straight to the sandbox whose body takes `ms` to arrive: an update in flight that long. */
async function slowSettingsUpdate(userId: string, ms: number): Promise<Response> {
  const { signV2Token } = await import('../support/sandbox.js');
  const token = await signV2Token(creds.api_key, creds.api_secret, 60, sandbox.sandbox.state);
  const body = JSON.stringify({ recording: { auto_recording: 'cloud' } });
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(new TextEncoder().encode(body.slice(0, 5)));
      await new Promise((resolve) => setTimeout(resolve, ms));
      controller.enqueue(new TextEncoder().encode(body.slice(5)));
      controller.close();
    },
  });
  return fetch(`${sandbox.url}/v2/users/${encodeURIComponent(userId)}/settings`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: stream,
    duplex: 'half',
  });
}
