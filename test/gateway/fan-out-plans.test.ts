import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RateLimitPlan } from '../../src/v2-contract/rate-limit-plans.js';
import { emptyCredentialFile, mapSandboxKeyToOAuth, startTestGateway, type TestGateway } from '../support/gateway.js';
import { meetingHappened } from './reports-support.js';

/**
 * The fan-out pre-check sizes a fan-out by the plan of the caller's own v2 account, as the buckets
 * its calls then wait on are sized: a credential map entry's `plan`, else OUTBOUND_DEFAULT_PLAN.
 * /report/getuserreport over six meetings asks for one participant report each, six Heavy calls
 * after the meeting list. Heavy is 10/s on Pro and 40/s on Business; scaled by 0.1, 4 s of
 * outbound wait admit at most five at Pro (a burst of one, then one a second), whatever the
 * machine's pace, and six at Business within the first second of it, so the meeting list may take
 * three seconds on a loaded machine. So the same call is refused at once (no participant report
 * sent) at Pro and answered at Business. Arithmetic, not timing: the refusal is decided before any
 * of the six is sent.
 */

const MARCH = { from: '2024-03-01', to: '2024-03-31' };
const RATE_LIMITED = { error: { code: 403, message: 'Sorry, the maximum number of api requests are already reached. Please try later.' } };
const LIMITS = { V2_RATE_LIMITS: 'on', RATE_LIMIT_SCALE: '0.1', OUTBOUND_MAX_WAIT_MS: '4000', UPSTREAM_MAX_ATTEMPTS: '1' };

/** A gateway at `defaultPlan` whose sandbox key hosted six meetings in March, and a file to map that key in. */
async function gatewayAt(defaultPlan: RateLimitPlan): Promise<{ gw: TestGateway; file: string; me: string }> {
  const file = emptyCredentialFile();
  const gw = await startTestGateway({ ...LIMITS, OUTBOUND_DEFAULT_PLAN: defaultPlan, V2_CREDENTIALS_FILE: file });
  const me = (await gw.v2('GET', '/users/me')).body.id as string;
  for (const day of ['04', '08', '11', '15', '18', '25']) await meetingHappened(gw, me, `2024-03-${day}T09:00:00Z`);
  return { gw, file, me };
}

const report = (gw: TestGateway, me: string) => gw.v1Raw('/report/getuserreport', { user_id: me, ...MARCH });

function expectAnswered(reply: Awaited<ReturnType<typeof report>>): void {
  expect(reply.body.error, JSON.stringify(reply.body)).toBeUndefined();
  expect(reply.body.meetings).toHaveLength(6);
  expect(reply.headers.get('x-v2-calls')).toBe('7'); // the list, then six participant reports
}

function expectRefusedAtOnce(reply: Awaited<ReturnType<typeof report>>): void {
  expect(reply.body).toEqual(RATE_LIMITED);
  expect(reply.headers.get('x-v2-calls')).toBe('1'); // only the meeting list: no participant report was sent in vain
}

describe('a caller on a larger plan than OUTBOUND_DEFAULT_PLAN (credential map: business, default: pro)', () => {
  let at: Awaited<ReturnType<typeof gatewayAt>>;
  beforeAll(async () => (at = await gatewayAt('pro')));
  afterAll(() => at?.gw.close());

  it('gets the fan-out the default plan refuses', async () => {
    await mapSandboxKeyToOAuth(at.gw, at.file, [], 'business');
    expectAnswered(await report(at.gw, at.me));
    // The same caller, its entry without a plan: the default plan's answer.
    await mapSandboxKeyToOAuth(at.gw, at.file);
    expectRefusedAtOnce(await report(at.gw, at.me));
  });
});

describe('a caller on a smaller plan than OUTBOUND_DEFAULT_PLAN (credential map: pro, default: business)', () => {
  let at: Awaited<ReturnType<typeof gatewayAt>>;
  beforeAll(async () => (at = await gatewayAt('business')));
  afterAll(() => at?.gw.close());

  it('is refused the fan-out the default plan admits', async () => {
    await mapSandboxKeyToOAuth(at.gw, at.file);
    expectAnswered(await report(at.gw, at.me));
    await mapSandboxKeyToOAuth(at.gw, at.file, [], 'pro');
    expectRefusedAtOnce(await report(at.gw, at.me));
  });
});
