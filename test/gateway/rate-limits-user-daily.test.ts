import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEETING_WRITES_PER_USER_PER_DAY } from '../../src/sandbox/rate-limit.js';
import { expectErrorText } from '../support/error-text.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

/**
 * A user's daily meeting creates and updates, through the real gateway with its v2 limits on,
 * over a sandbox that enforces today's limits itself: the 101st of a user's day answers a v1
 * error saying whose limit it is and when it resets, and holds back no other user's calls (a
 * pause of the account's calls for it would refuse the second user's create below, past its wait).
 */

const FUTURE = '2099-01-01T10:00:00Z';
let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway(
    { V2_RATE_LIMITS: 'on', UPSTREAM_MAX_ATTEMPTS: '1', OUTBOUND_MAX_WAIT_MS: '5000' },
    { sandboxLimits: { scale: 1 } },
  );
});
afterAll(() => gw.close());

const create = (hostId: string, topic: string) =>
  gw.v1Raw('/meeting/create', { host_id: hostId, type: '2', topic, start_time: FUTURE, duration: '30' });

describe("a user's 100 meeting creates and updates a day", () => {
  it("the 101st answers the v1 rate-limit error in the service's words, and a second user's creates still succeed", async () => {
    const first = (await gw.v2('GET', '/users/me')).body.id as string;
    const second = await gw.v2('POST', '/users', {
      body: { action: 'custCreate', user_info: { email: 'daily.second@example.com', type: 1 } },
    });
    expect(second.status).toBe(201);

    for (let i = 0; i < MEETING_WRITES_PER_USER_PER_DAY; i++) {
      const made = await create(first, `day ${i}`);
      expect(made.body.error, JSON.stringify(made.body)).toBeUndefined();
    }
    const refused = await create(first, 'one too many');
    expect(refused.body).toEqual({
      error: {
        code: 403,
        message:
          'You have exceeded the daily rate limit (100) of Meeting Create/Update API requests permitted for this particular user. ' +
          'You may resume these user-level requests at GMT 00:00:00.',
      },
    });
    expectErrorText(refused.body.error, 'user-daily-limited', [String(MEETING_WRITES_PER_USER_PER_DAY)]);
    // Retry-After: the seconds to the next 00:00 UTC.
    const untilMidnight = (Math.floor(Date.now() / 86_400_000) + 1) * 86_400_000 - Date.now();
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(Math.abs(retryAfter * 1000 - untilMidnight)).toBeLessThan(60_000);

    // Another user of the same account, at once: not held back by the first user's day.
    const theirs = await create(second.body.id, 'theirs');
    expect(theirs.body.error, JSON.stringify(theirs.body)).toBeUndefined();
    expect(theirs.body.host_id).toBe(second.body.id);
    // The first user's reads go on too; their writes stay refused.
    expect((await gw.v1Raw('/user/get', { id: first })).body.error).toBeUndefined();
    expect((await create(first, 'still too many')).body.error.message).toMatch(/daily rate limit \(100\)/);
    const topics = [...gw.sandbox.state.meetings.values()].map((m) => m.topic);
    expect(topics.filter((t) => t.startsWith('day '))).toHaveLength(100);
    expect(topics).not.toContain('one too many');
  });
});
