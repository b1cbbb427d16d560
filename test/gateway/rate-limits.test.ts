import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineEndpoint } from '../../src/translators/kit/define.js';
import { V2 } from '../../src/v2-contract/v2-routes.js';
import { ALL_ENDPOINTS } from '../../src/translators/endpoints.js';
import { v1, v1Params } from '../../src/v1/param-types.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

/**
 * Both limits through the real gateway, over real HTTP and real time, against a sandbox that
 * enforces v2's limits itself (so an upstream 429 would be seen, not assumed away).
 */

/** Test fixture: one v1 call that fans out into `calls` v2 reads, all at once. */
const fanOut = defineEndpoint({
  path: '/test/fanout',
  params: v1Params({ calls: v1.int({ min: 1, max: 100 }) }),
  v2Calls: [V2.users.get],
  async handle({ calls }, ctx) {
    // Distinct queries: identical GETs in flight would be coalesced into one (src/upstream/coalesce.ts).
    const answers = await Promise.all(Array.from({ length: calls }, (_, i) => ctx.v2.get(V2.users.get.at('me'), { fan_out: i })));
    return { calls: answers.length };
  },
});
/** Test fixture: a v1 list path, to check the 1/s list class. */
const list = defineEndpoint({ path: '/test/list', params: v1Params({}), v2Calls: [], handle: async () => ({ ok: true }) });

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway(
    // The spec's limits on both sides, and no retries: an upstream 429 would surface as an error.
    { V1_RATE_LIMITS: 'on', V2_RATE_LIMITS: 'on', UPSTREAM_MAX_ATTEMPTS: '1' },
    {
      endpoints: [...ALL_ENDPOINTS, fanOut, list],
      sandboxLimits: { scale: 1 },
    },
  );
});
afterAll(() => gw.close());

async function flood(path: string, n: number, params: Record<string, string> = {}, creds = gw.credentials) {
  const started = Date.now();
  const replies = await Promise.all(Array.from({ length: n }, () => gw.v1Raw(path, { ...creds, ...params })));
  return { replies, seconds: (Date.now() - started) / 1000 };
}

describe('v1 inbound limits', () => {
  it('admits 10 per second per key in general, within one token of burst, and answers the rest 403 without calling v2', async () => {
    // The key's owner, proven: until v2 has accepted a pair, it is limited in buckets of its own (no
    // wrong secret may drain the owner's), so a first burst may spend both; the key's bucket refills.
    expect((await gw.v1('/user/checkemail', { email: 'a@b.c' })).error).toBeUndefined();
    await new Promise((r) => setTimeout(r, 1100));
    const { replies, seconds } = await flood('/user/checkemail', 30, { email: 'a@b.c' });
    const admitted = replies.filter((r) => !r.body.error);
    const refused = replies.filter((r) => r.body.error);
    expect(admitted.length).toBeGreaterThanOrEqual(10);
    expect(admitted.length).toBeLessThanOrEqual(10 + Math.ceil(seconds * 10) + 1);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect(r.body).toEqual({
        error: { code: 403, message: 'Sorry, the maximum number of api requests are already reached. Please try later.' },
      });
      expect(r.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(r.headers.get('x-ratelimit-limit')).toBe('10');
      expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(r.headers.get('x-v2-calls')).toBe('0');
    }
    expect(admitted[0]!.headers.get('x-ratelimit-limit')).toBe('10');
  });

  it('admits 1 per second on list paths', async () => {
    await new Promise((r) => setTimeout(r, 1100)); // let the list bucket fill
    const { replies, seconds } = await flood('/test/list', 6);
    const admitted = replies.filter((r) => !r.body.error).length;
    expect(admitted).toBeGreaterThanOrEqual(1);
    expect(admitted).toBeLessThanOrEqual(1 + Math.ceil(seconds) + 1);
    expect(replies.find((r) => r.body.error)!.headers.get('x-ratelimit-limit')).toBe('1');
  });
});

describe('v2 outbound limits', () => {
  it('paces a 60-call fan-out under the sandbox limit: it completes, and v2 never answers 429', async () => {
    await new Promise((r) => setTimeout(r, 1100)); // fresh buckets after the floods above
    const started = Date.now();
    const answer = await gw.v1('/test/fanout', { calls: '60' });
    const seconds = (Date.now() - started) / 1000;
    expect(answer).toEqual({ calls: 60 });
    // 60 Light calls of a Pro account at ~30/s with a burst of 21: it had to wait, i.e. the pacing did the work, not luck.
    expect(seconds).toBeGreaterThan(1);
  });

  it('gives up with the v1 rate-limit error rather than pile up past the deadline', async () => {
    const slow = await startTestGateway(
      { V2_RATE_LIMITS: 'on', OUTBOUND_MAX_WAIT_MS: '300', UPSTREAM_MAX_ATTEMPTS: '1' },
      { endpoints: [...ALL_ENDPOINTS, fanOut] },
    );
    try {
      const reply = await slow.v1Raw('/test/fanout', { calls: '40' });
      expect(reply.body).toEqual({ error: { code: 403, message: expect.stringContaining('maximum number of api requests') } });
      expect(reply.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(Number(reply.headers.get('x-v2-calls'))).toBeLessThan(40);
    } finally {
      await slow.close();
    }
  });

  it('refuses a list page whose full reads the wait cannot admit before reading any, and serves a page that fits', async () => {
    // ~500 ms of wait admit a Pro account's Light burst (21) and ~15 more: 60 reads do not fit, 5 do.
    const short = await startTestGateway({ V2_RATE_LIMITS: 'on', OUTBOUND_MAX_WAIT_MS: '500', UPSTREAM_MAX_ATTEMPTS: '1' });
    try {
      const host = (await short.v2('GET', '/users/me')).body.id as string;
      for (let i = 0; i < 60; i++) {
        const created = await short.v2('POST', `/users/${host}/meetings`, {
          body: { topic: `M${i}`, type: 2, start_time: '2035-01-01T10:00:00Z' },
        });
        expect(created.status).toBe(201);
      }
      const refused = await short.v1Raw('/meeting/list', { host_id: host, page_size: '60' });
      expect(refused.body).toEqual({ error: { code: 403, message: expect.stringContaining('maximum number of api requests') } });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers.get('x-v2-calls'))).toBeLessThanOrEqual(2); // the page and the live list, no meeting read
      await new Promise((r) => setTimeout(r, 1100));
      const fits = await short.v1Raw('/meeting/list', { host_id: host, page_size: '5' });
      expect(fits.body.error, JSON.stringify(fits.body)).toBeUndefined();
      expect(fits.body.meetings).toHaveLength(5);
    } finally {
      await short.close();
    }
  });

  it("does not slow another account's calls while one account's fan-out waits", async () => {
    await new Promise((r) => setTimeout(r, 1100));
    const created = await gw.v2('POST', '/accounts', {
      body: { first_name: 'Sub', last_name: 'Account', email: `sub-${Date.now()}@example.com`, password: 'Passw0rd!x' },
    });
    expect(created.status).toBe(201);
    const accounts = (await gw.control('GET', '/accounts')).body.accounts as { id: string; api_key: string; api_secret: string }[];
    const sub = accounts.find((a) => a.id === created.body.id)!;
    const other = { api_key: sub.api_key, api_secret: sub.api_secret };

    // The fan-out's 90 calls wait for their account's tokens for seconds; another account's call is
    // answered while they still wait (an order, not a time: on a busy machine a call can take a second).
    let busyDone = false;
    const busy = gw.v1('/test/fanout', { calls: '90' }).finally(() => (busyDone = true));
    await new Promise((r) => setTimeout(r, 100));
    const quick = await gw.v1('/user/checkemail', { ...other, email: 'x@y.z' });
    expect(quick).toEqual({ existed_email: false });
    expect(busyDone).toBe(false);
    expect(await busy).toEqual({ calls: 90 });
  });
});

describe('credentials first, under the v1 limits', () => {
  it("a flood of wrong secrets for a key takes none of the key's tokens", async () => {
    const email = { email: 'owner@sandbox.v1gate.local' };
    // One good call proves the pair; then let the bucket refill.
    expect((await gw.v1Raw('/user/checkemail', { ...gw.credentials, ...email })).body).toEqual({ existed_email: true });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const wrong = await flood('/user/checkemail', 30, email, { api_key: gw.credentials.api_key, api_secret: 'not-the-secret' });
    expect(wrong.replies.every((r) => r.body.error && [102, 403].includes(r.body.error.code))).toBe(true);
    const good = await flood('/user/checkemail', 9, email);
    expect(good.replies.map((r) => r.body)).toEqual(Array(9).fill({ existed_email: true }));
  });
});
