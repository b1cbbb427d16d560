import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { meetingHappened } from './reports-support.js';

/**
 * The limits of the report classes through the real gateway, over real time, against a sandbox
 * that enforces v2's report limit itself (1/s) and no retries: an upstream 429 would surface as
 * an error answer, not be retried away.
 */

const SPEC_SANDBOX_LIMITS = { scale: 1 };
const MARCH = { from: '2024-03-01', to: '2024-03-31' };
const RATE_LIMITED = { error: { code: 403, message: 'Sorry, the maximum number of api requests are already reached. Please try later.' } };
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

let gw: TestGateway;
let ownerId: string;
beforeAll(async () => {
  gw = await startTestGateway(
    { V1_RATE_LIMITS: 'on', V2_RATE_LIMITS: 'on', UPSTREAM_MAX_ATTEMPTS: '1' },
    { sandboxLimits: SPEC_SANDBOX_LIMITS },
  );
  ownerId = (await gw.v2('GET', '/users/me')).body.id;
  for (const day of ['04', '11', '18', '25']) await meetingHappened(gw, ownerId, `2024-03-${day}T09:00:00Z`, [{ name: 'Guest' }]);
});
afterAll(() => gw.close());

describe('v1 inbound limits of the report classes', () => {
  it('/v1/report/*: 1 per second per key; the rest answer 403 at once, and what v2 was asked never answered 429', async () => {
    const started = Date.now();
    const replies = await Promise.all(Array.from({ length: 5 }, () => gw.v1Raw('/report/getdailyreport', { year: '2024', month: '3' })));
    const seconds = (Date.now() - started) / 1000;
    const admitted = replies.filter((r) => !r.body.error);
    const refused = replies.filter((r) => r.body.error);
    expect(admitted.length).toBeGreaterThanOrEqual(1);
    expect(admitted.length).toBeLessThanOrEqual(1 + Math.ceil(seconds) + 1);
    for (const r of admitted) expect(r.body.dates).toHaveLength(31);
    for (const r of refused) {
      expect(r.body).toEqual(RATE_LIMITED);
      expect(r.headers.get('x-ratelimit-limit')).toBe('1');
      expect(r.headers.get('x-v2-calls')).toBe('0');
    }
  });

  it('/v1/report/getuserreport: 1 per day per key', async () => {
    await pause(1100); // the 1/s bucket refills; the daily one does not
    const first = await gw.v1Raw('/report/getuserreport', { user_id: ownerId, ...MARCH, page_size: '1' });
    expect(first.body.error, JSON.stringify(first.body)).toBeUndefined();
    await pause(1100);
    const second = await gw.v1Raw('/report/getuserreport', { user_id: ownerId, ...MARCH, page_size: '1' });
    expect(second.body).toEqual(RATE_LIMITED);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(60);
    expect(second.headers.get('x-v2-calls')).toBe('0');
  });
});

describe('v1 inbound limits of the metrics lists', () => {
  it('/v1/metrics/meetings and /v1/metrics/webinars: 1 per minute per key', async () => {
    const first = await gw.v1Raw('/metrics/meetings', { type: '2', ...MARCH });
    expect(first.body.error, JSON.stringify(first.body)).toBeUndefined();
    expect(first.body.total_records).toBe(4);
    await pause(1100); // the 1/s bucket refills; the per-minute one does not
    const second = await gw.v1Raw('/metrics/webinars', { type: '2', ...MARCH });
    expect(second.body).toEqual(RATE_LIMITED);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(30);
    expect(second.headers.get('x-v2-calls')).toBe('0');
  });
});

describe('v2 outbound limits of the report class', () => {
  it('paces a report fan-out within the outbound wait: it completes, and v2 never answers 429', async () => {
    const paced = await startTestGateway({ V2_RATE_LIMITS: 'on', UPSTREAM_MAX_ATTEMPTS: '1' }, { sandboxLimits: SPEC_SANDBOX_LIMITS });
    try {
      const me = (await paced.v2('GET', '/users/me')).body.id;
      for (const day of ['04', '11', '18']) await meetingHappened(paced, me, `2024-03-${day}T09:00:00Z`, [{ name: 'Guest' }]);
      const reply = await paced.v1Raw('/report/getuserreport', { user_id: me, ...MARCH });
      expect(reply.body.error, JSON.stringify(reply.body)).toBeUndefined();
      expect(reply.body.meetings).toHaveLength(3);
      expect(reply.headers.get('x-v2-calls')).toBe('4'); // the list, then three participant reports, one a second
    } finally {
      await paced.close();
    }
  });

  it('answers the v1 rate-limit error at once when the fan-out needs more report calls than the wait admits', async () => {
    // Heavy calls (the reports) at a Pro account's 10/s scaled by 0.1: a burst of one, then one a
    // second, so 2 s of wait admit ~3 report calls (minus v1gate's margin); this page needs 1 + 4.
    const short = await startTestGateway(
      { V2_RATE_LIMITS: 'on', RATE_LIMIT_SCALE: '0.1', OUTBOUND_MAX_WAIT_MS: '2000', UPSTREAM_MAX_ATTEMPTS: '1' },
      { sandboxLimits: SPEC_SANDBOX_LIMITS },
    );
    try {
      const me = (await short.v2('GET', '/users/me')).body.id;
      for (const day of ['04', '11', '18', '25']) await meetingHappened(short, me, `2024-03-${day}T09:00:00Z`);
      const refused = await short.v1Raw('/report/getuserreport', { user_id: me, ...MARCH });
      expect(refused.body).toEqual(RATE_LIMITED);
      expect(refused.headers.get('x-v2-calls')).toBe('1'); // only the meeting list: no participant report was sent in vain
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

      await pause(1100);
      const fits = await short.v1Raw('/report/getuserreport', { user_id: me, ...MARCH, page_size: '1' });
      expect(fits.body.error, JSON.stringify(fits.body)).toBeUndefined();
      expect(fits.body.total_records).toBe(4);
    } finally {
      await short.close();
    }
  });
});
