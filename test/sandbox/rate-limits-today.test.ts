import { afterEach, describe, expect, it } from 'vitest';
import { MEETING_WRITES_PER_USER_PER_DAY, REGISTRANT_ADDS_PER_DAY } from '../../src/sandbox/rate-limit.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';

/**
 * The sandbox's v2 limits as the service applies them today: per account by plan and category,
 * a user's daily meeting writes, and the `X-RateLimit-*` headers of every answer. Its clock is
 * stopped (it moves only when a test moves it), so a bucket refills only when a test says so and
 * a count never depends on how fast this machine is.
 */

let sb: RunningSandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

async function limitedSandbox(startMs = Date.UTC(2026, 10, 26, 12)): Promise<{ sb: RunningSandbox; advance(ms: number): void }> {
  let nowMs = startMs;
  sb = await startSandbox({ limits: { scale: 1 }, clock: { now: () => new Date(nowMs) } });
  return { sb, advance: (ms) => (nowMs += ms) };
}

/** A token of a second server-to-server app of the master account: another app, the same account. */
async function secondAppToken(running: RunningSandbox): Promise<string> {
  const created = await running.control('POST', `/accounts/${running.sandbox.master.id}/oauth-apps`, { name: 'second' });
  const { state } = running.sandbox;
  const client = state.oauthApps.authenticate(created.body.client_id, created.body.client_secret);
  if (!client) throw new Error('the new app does not authenticate');
  return state.oauthApps.issue(client, state.now().getTime()).accessToken;
}

const rateHeaders = (a: { headers: Headers }) => ({
  category: a.headers.get('x-ratelimit-category'),
  type: a.headers.get('x-ratelimit-type'),
  limit: a.headers.get('x-ratelimit-limit'),
  remaining: a.headers.get('x-ratelimit-remaining'),
});

describe('per account, by plan and category', () => {
  it("a Pro account's Light budget is 30 a second, shared by every app of the account, and each answer says where it stands", async () => {
    const { sb: running } = await limitedSandbox();
    const other = await secondAppToken(running);
    const first = await running.v2('GET', '/users/me');
    expect(first.status).toBe(200);
    expect(rateHeaders(first)).toEqual({ category: 'Light', type: 'QPS', limit: '30', remaining: '29' });
    // 29 more, alternating the two apps: all one budget.
    for (let i = 0; i < 29; i++) {
      const answer = await running.v2('GET', '/users/me', i % 2 === 0 ? { token: other } : {});
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-ratelimit-remaining')).toBe(String(28 - i));
    }
    const refused = await running.v2('GET', '/users/me', { token: other });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: 429,
      message: 'You have reached the maximum per-second rate limit for this API. Try again later.',
    });
    expect(rateHeaders(refused)).toEqual({ category: 'Light', type: 'QPS', limit: '30', remaining: '0' });
    expect(refused.headers.get('retry-after')).toBe('1');
    // Medium is a budget of its own: the spent Light one does not touch it.
    const list = await running.v2('GET', '/users');
    expect(list.status).toBe(200);
    expect(rateHeaders(list)).toEqual({ category: 'Medium', type: 'QPS', limit: '20', remaining: '19' });
  });

  it('a refused call spends nothing, and the budget refills at the plan rate', async () => {
    const { sb: running, advance } = await limitedSandbox();
    for (let i = 0; i < 30; i++) await running.v2('GET', '/users/me');
    for (let i = 0; i < 3; i++) expect((await running.v2('GET', '/users/me')).status).toBe(429);
    advance(100); // 3 tokens at 30/s
    for (let i = 0; i < 3; i++) expect((await running.v2('GET', '/users/me')).status).toBe(200);
    expect((await running.v2('GET', '/users/me')).status).toBe(429);
  });

  it('the plan is a property of the account, set through the control API: Business gets 80 Light a second', async () => {
    const { sb: running } = await limitedSandbox();
    const set = await running.control('PUT', `/accounts/${running.sandbox.master.id}/rate-limit-plan`, { plan: 'business' });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ account_id: running.sandbox.master.id, plan: 'business' });
    expect(rateHeaders(await running.v2('GET', '/users/me'))).toMatchObject({ limit: '80', remaining: '79' });
    const bad = await running.control('PUT', `/accounts/${running.sandbox.master.id}/rate-limit-plan`, { plan: 'enterprise' });
    expect(bad.status).toBe(400);
    expect(rateHeaders(await running.v2('GET', '/users/me'))).toMatchObject({ limit: '80', remaining: '78' });
  });

  it('Resource-intensive dashboards: 10 a minute on Pro', async () => {
    const { sb: running, advance } = await limitedSandbox();
    const query = { from: '2026-11-01', to: '2026-11-20' };
    for (let i = 0; i < 10; i++) expect((await running.v2('GET', '/metrics/meetings', { query })).status).toBe(200);
    const refused = await running.v2('GET', '/metrics/meetings', { query });
    expect(refused.status).toBe(429);
    expect(rateHeaders(refused)).toEqual({ category: 'Resource-intensive', type: 'QPS', limit: '10', remaining: '0' });
    expect(refused.headers.get('retry-after')).toBe('6');
    advance(6_000);
    expect((await running.v2('GET', '/metrics/meetings', { query })).status).toBe(200);
  });
});

describe("a user's daily meeting creates and updates", () => {
  it("the 101st of the day is refused with today's text until 00:00 UTC, and another user's still succeed", async () => {
    const { sb: running, advance } = await limitedSandbox(Date.UTC(2026, 10, 26, 22, 30));
    const second = await running.v2('POST', '/users', {
      body: { action: 'custCreate', user_info: { email: 'second.host@example.com', type: 1 } },
    });
    expect(second.status).toBe(201);
    let meetingId = 0;
    for (let i = 0; i < MEETING_WRITES_PER_USER_PER_DAY; i++) {
      advance(100); // under Medium's 20 a second: only the daily count is tested
      const created =
        i < 99
          ? await running.v2('POST', '/users/me/meetings', { body: { topic: `m${i}`, type: 2 } })
          : await running.v2('PATCH', `/meetings/${meetingId}`, { body: { topic: 'renamed' } });
      expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
      if (i === 0) meetingId = created.body.id;
      expect(rateHeaders(created)).toMatchObject({ type: 'Daily-limit', limit: '100', remaining: String(99 - i) });
    }
    advance(100);
    const refused = await running.v2('POST', '/users/me/meetings', { body: { topic: 'one too many', type: 2 } });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: 429,
      message:
        'You have exceeded the daily rate limit (100) of Meeting Create/Update API requests permitted for this particular user. ' +
        'You may resume these user-level requests at GMT 00:00:00.',
    });
    expect(rateHeaders(refused)).toMatchObject({ type: 'Daily-limit', limit: '100', remaining: '0' });
    expect(refused.headers.get('retry-after')).toBe('2026-11-27T00:00:00Z');
    // The host's update counts too, and nothing was created by the refusal.
    expect((await running.v2('PATCH', `/meetings/${meetingId}`, { body: { topic: 'again' } })).status).toBe(429);
    const meetings = [...running.sandbox.state.meetings.values()];
    expect(meetings).toHaveLength(99);
    expect(meetings.find((m) => m.id === meetingId)?.topic).toBe('renamed');
    // Another user of the same account: a day of their own.
    const other = await running.v2('POST', `/users/${second.body.id}/meetings`, { body: { topic: 'theirs', type: 2 } });
    expect(other.status).toBe(201);
    expect(rateHeaders(other)).toMatchObject({ type: 'Daily-limit', remaining: '99' });
    // A new UTC day.
    advance(Date.UTC(2026, 10, 27) - Date.UTC(2026, 10, 26, 22, 30));
    const nextDay = await running.v2('POST', '/users/me/meetings', { body: { topic: 'tomorrow', type: 2 } });
    expect(nextDay.status).toBe(201);
    expect(rateHeaders(nextDay)).toMatchObject({ remaining: '99' });
  });
});

describe("a resource's own limits", () => {
  it("a registrant's fourth add of the day to one webinar is refused with today's text, the account's budgets untouched", async () => {
    const { sb: running, advance } = await limitedSandbox(Date.UTC(2026, 10, 26, 12));
    const made = await running.v2('POST', '/users/me/webinars', { body: { topic: 'w', type: 5, settings: { approval_type: 0 } } });
    expect(made.status).toBe(201);
    const add = (email: string) =>
      running.v2('POST', `/webinars/${made.body.id}/registrants`, { body: { email, first_name: 'S', last_name: 'D' } });
    for (let i = 0; i < REGISTRANT_ADDS_PER_DAY; i++) {
      advance(100);
      expect((await add('student@example.com')).status).toBe(201);
    }
    advance(100);
    const refused = await add('student@example.com');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: 429,
      message:
        'You have exceeded the daily rate limit of (3) for Add a webinar registrant API requests for the registrant (student@example.com). ' +
        'You can resume these API requests at GMT 00:00:00.',
    });
    expect(rateHeaders(refused)).toMatchObject({ category: 'Light', type: 'Daily-limit', limit: '3', remaining: '0' });
    expect(refused.headers.get('retry-after')).toBe('2026-11-27T00:00:00Z');
    // Another registrant of the same webinar, and the same registrant tomorrow.
    expect((await add('other@example.com')).status).toBe(201);
    advance(Date.UTC(2026, 10, 27) - Date.UTC(2026, 10, 26, 12));
    expect((await add('student@example.com')).status).toBe(201);
  });

  it("webinar creates and updates spend their host's day with the meetings'", async () => {
    const { sb: running, advance } = await limitedSandbox();
    advance(100);
    const webinar = await running.v2('POST', '/users/me/webinars', { body: { topic: 'w', type: 5 } });
    expect(rateHeaders(webinar)).toMatchObject({ type: 'Daily-limit', limit: '100', remaining: '99' });
    advance(100);
    const update = await running.v2('PATCH', `/webinars/${webinar.body.id}`, { body: { topic: 'renamed' } });
    expect(rateHeaders(update)).toMatchObject({ type: 'Daily-limit', remaining: '98' });
    advance(100);
    const meeting = await running.v2('POST', '/users/me/meetings', { body: { topic: 'm', type: 2 } });
    expect(rateHeaders(meeting)).toMatchObject({ type: 'Daily-limit', remaining: '97' });
  });

  it('every answer carries a tracking id of its own, errors too', async () => {
    const { sb: running } = await limitedSandbox();
    const answers = [await running.v2('GET', '/users/me'), await running.v2('GET', '/users/nobody@example.com')];
    const ids = answers.map((a) => a.headers.get('x-zm-trackingid'));
    for (const id of ids) expect(id).toMatch(/^v=2\.0;clid=us06;rid=WEB_[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(2);
    expect(answers[1]!.status).toBe(404);
  });
});
