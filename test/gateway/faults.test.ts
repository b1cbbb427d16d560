import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningGateway } from '../../src/gateway.js';
import { postV1 } from '../support/v1-form.js';
import { startFaultUpstream, startGatewayOver, type FaultUpstream } from '../support/fault-upstream.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';
import { FUTURE, uniqueEmail } from '../support/v1-answers.js';

/**
 * The rows of the reliability issue, each against a real gateway over a real sandbox with a
 * fault-injecting proxy between them: after every fault, the sandbox's state is checked against
 * what the v1 answer claimed.
 */
let sandbox: RunningSandbox;
let faults: FaultUpstream;
let gateway: RunningGateway;
let creds: { api_key: string; api_secret: string };

async function start(env: Record<string, string> = {}) {
  gateway = await startGatewayOver(faults.url, { UPSTREAM_TIMEOUT_MS: '1000', ...env });
}

beforeAll(async () => {
  sandbox = await startSandbox();
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

async function v1(path: string, params: Record<string, string>, init: RequestInit = {}): Promise<any> {
  return (await postV1(gateway.url, path, { ...creds, ...params }, init)).json();
}

const sent = (method: string, path: RegExp) => faults.seen.filter((r) => r.method === method && path.test(r.path));
const owner = () => sandbox.sandbox.master.ownerId;

describe('undo always gets its turn', () => {
  it("a custcreate whose second v2 call hangs past the call's deadline still sends its undo, and nothing remains", async () => {
    // The hang (cut off at UPSTREAM_TIMEOUT_MS) outlasts the call's budget; the budget is wide enough that a
    // loaded machine's own slowness before the first v2 call never spends it (it was 300 ms, and a call that
    // took that long to be read and authenticated was answered the rate-limit error instead).
    await start({ V2_RATE_LIMITS: 'on', OUTBOUND_MAX_WAIT_MS: '1500', UPSTREAM_TIMEOUT_MS: '3000' });
    faults.rules.push({ method: 'PATCH', path: /^\/users\/[^/]+$/, fault: { kind: 'hang' }, times: 1 });
    const email = uniqueEmail('hang');
    const answer = await v1('/user/custcreate', { email, type: '1', dept: 'Sales' });
    expect(answer.error).toMatchObject({ code: 503, message: expect.stringContaining('Its earlier steps were undone.') });
    expect(sent('DELETE', /^\/users\/[^/]+$/)).toHaveLength(1);
    expect((await sandbox.v2('GET', `/users/${encodeURIComponent(email)}`)).status).toBe(404);
  });
});

describe('reads after a write never turn a done write into a bare error', () => {
  it('/group/create whose GET /users/me answers 500 says the group was created, and it exists', async () => {
    await start();
    faults.rules.push({
      method: 'GET',
      path: /^\/users\/me$/,
      fault: { kind: 'answer', status: 500, body: '{"code":500,"message":"boom"}' },
    });
    const name = `Faulty ${Date.now()}`;
    const answer = await v1('/group/create', { name });
    const groups = (await sandbox.v2('GET', '/groups')).body.groups as { id: string; name: string }[];
    const created = groups.find((g) => g.name === name);
    expect(created).toBeDefined();
    expect(answer.error).toMatchObject({
      code: 503,
      message: expect.stringMatching(new RegExp(`^The group ${created!.id} was created, but reading it back`)),
    });
  });

  it('/group/edit whose read-back fails says the edit was made, and it was', async () => {
    await start();
    const id = (await sandbox.v2('POST', '/groups', { body: { name: `Before ${Date.now()}` } })).body.id as string;
    faults.rules.push({ method: 'GET', path: new RegExp(`^/groups/${id}$`), fault: { kind: 'reset' } });
    const answer = await v1('/group/edit', { id, name: `After ${id}` });
    expect(answer.error.message).toMatch(new RegExp(`^The group ${id} was edited, but reading it back`));
    expect((await sandbox.v2('GET', `/groups/${id}`)).body.name).toBe(`After ${id}`);
  });
});

describe('one error table: no raw HTTP status becomes a v1 code', () => {
  const create = () =>
    v1('/meeting/create', { host_id: owner(), type: '2', topic: `Faulty ${Date.now()}`, start_time: FUTURE, duration: '30' });
  const meetingsNow = () => sandbox.sandbox.state.meetings.size;

  it.each([
    ['applied, then a 502 page', { kind: 'answer-after-apply', status: 502, body: '<html>Bad gateway</html>' } as const, 1],
    ['applied, then reset halfway through the answer', { kind: 'reset-after-apply' } as const, 1],
    ['a 500 with a v2 error body', { kind: 'answer', status: 500, body: '{"code":500,"message":"Internal"}' } as const, 0],
  ])('meeting/create %s answers 503 saying it may have been applied', async (_label, fault, madeUpstream) => {
    await start();
    const before = meetingsNow();
    faults.rules.push({ method: 'POST', path: /\/meetings$/, fault, times: 1 });
    const answer = await create();
    expect(answer.error).toMatchObject({ code: 503, message: expect.stringContaining('may or may not have been applied') });
    expect(meetingsNow()).toBe(before + madeUpstream);
  });

  it.each([
    ['a bodiless 404', { kind: 'answer', status: 404 } as const],
    ['a 431 page', { kind: 'answer', status: 431, body: 'Request Header Fields Too Large' } as const],
  ])('meeting/create refused with %s (no v2 error, not applied) answers 503, never the raw status', async (_label, fault) => {
    await start();
    const before = meetingsNow();
    faults.rules.push({ method: 'POST', path: /\/meetings$/, fault, times: 1 });
    const answer = await create();
    expect(answer.error).toMatchObject({ code: 503, message: expect.stringContaining('Nothing was changed.') });
    expect(meetingsNow()).toBe(before);
  });

  it.each([
    ['garbage', { kind: 'answer', status: 200, body: 'not json' } as const],
    ['an array where an object is due', { kind: 'answer', status: 200, body: '[]' } as const],
    ['a string', { kind: 'answer', status: 200, body: '"str"' } as const],
    [
      'an answer past UPSTREAM_MAX_BODY_BYTES',
      { kind: 'answer', status: 200, body: `{"pad":"${'x'.repeat(64 * 1024)}`, repeatBodyTimes: 64 } as const,
    ],
  ])('a read answered with %s is an upstream error, never a success', async (_label, fault) => {
    await start({ UPSTREAM_MAX_BODY_BYTES: String(1024 * 1024) });
    faults.rules.push({ method: 'GET', path: /^\/users\/[^/]+$/, fault });
    const answer = await v1('/user/get', { id: owner() });
    expect(answer.error).toMatchObject({ code: 503 });
  });
});

describe('429 from the upstream', () => {
  it("the account's limit with a long Retry-After answers the v1 rate-limit error at once and pauses only that class", async () => {
    await start({ V2_RATE_LIMITS: 'on' });
    // The account's Heavy daily cap, in the service's words (mappings/v2-limit-refusals.ts).
    const body = JSON.stringify({
      code: 429,
      message:
        'You have reached the maximum daily rate limit for this API. Refer to the response header for details on when you can make another request.',
    });
    faults.rules.push({
      method: 'GET',
      path: /^\/report\//,
      fault: { kind: 'answer', status: 429, headers: { 'retry-after': '30', 'x-ratelimit-type': 'Daily-limit' }, body },
      times: 1,
    });
    const refused = await v1('/report/getaccountreport', { from: '2026-01-01', to: '2026-01-31' });
    expect(refused.error).toMatchObject({ code: 403 });
    expect(sent('GET', /^\/report\//)).toHaveLength(1); // not retried into the storm
    // The report class is paused: the next report call is refused without reaching the upstream.
    expect((await v1('/report/getaccountreport', { from: '2026-01-01', to: '2026-01-31' })).error).toMatchObject({ code: 403 });
    expect(sent('GET', /^\/report\//)).toHaveLength(1);
    // Another class of the same key is not held back.
    expect(await v1('/user/checkemail', { email: 'nobody@example.com' })).toEqual({ existed_email: false });
  });
});

describe('a call whose client has gone', () => {
  it('is withdrawn while it waits for an outbound token: no write starts after the client left', async () => {
    // Light budgets of about one token (today's documents label POST /groups Light): a first
    // group created spends it, so the next write waits for a token.
    await start({ V2_RATE_LIMITS: 'on', RATE_LIMIT_SCALE: '0.04' });
    await v1('/group/create', { name: `Spent ${Date.now()}` });
    const created = sent('POST', /^\/groups$/).length;
    const leaving = new AbortController();
    const name = `Left ${Date.now()}`;
    const call = v1('/group/create', { name }, { signal: leaving.signal }).catch((error: Error) => error.name);
    // The client leaves once its write waits for a token (however long a loaded machine takes to get there).
    const waiting = () => gateway.limiters.outbound.stats().queueDepth.reduce((sum, lane) => sum + lane.waiting, 0);
    await vi.waitFor(() => expect(waiting()).toBe(1), { timeout: 20_000, interval: 10 });
    leaving.abort();
    expect(await call).toBe('AbortError');
    // The key's next write queues behind where the withdrawn one waited (FIFO): once it has been
    // sent, the token the withdrawn call waited for has come and gone, however slow the machine.
    const next = `Next ${Date.now()}`;
    expect((await v1('/group/create', { name: next })).error).toBeUndefined();
    expect(sent('POST', /^\/groups$/)).toHaveLength(created + 1);
    const names = ((await sandbox.v2('GET', '/groups')).body.groups as { name: string }[]).map((g) => g.name);
    expect(names).toContain(next);
    expect(names).not.toContain(name);
  }, 60_000);
});
