import { describe, expect, it } from 'vitest';
import { v2LimitKindOf } from '../src/ratelimit/limit-kind.js';
import {
  CONCURRENT_REQUESTS_MESSAGE,
  MEETING_WRITES_PER_USER_PER_DAY,
  registrantAdds,
  registrantStatusChanges,
} from '../src/sandbox/rate-limit.js';
import { V2_LIMIT_TEXTS } from './v2-limit-refusals.js';

describe('whose limit a 429 is', () => {
  it("reads each row's captured example as that row's kind", () => {
    for (const row of V2_LIMIT_TEXTS) expect(v2LimitKindOf(row.example, undefined), row.example).toBe(row.kind);
  });

  it('reads every 429 text the sandbox answers as the limit the sandbox meant', () => {
    expect(v2LimitKindOf(registrantAdds('webinar', 1, 'a@example.com').message(3), 'Daily-limit')).toBe('resource');
    expect(v2LimitKindOf(registrantAdds('meeting', 1, 'a@example.com').message(3), 'Daily-limit')).toBe('resource');
    expect(v2LimitKindOf(registrantStatusChanges('webinar', 1, 'a@example.com').message(10), 'Daily-limit')).toBe('resource');
    expect(v2LimitKindOf(CONCURRENT_REQUESTS_MESSAGE, undefined)).toBe('concurrency');
    const userDay = `You have exceeded the daily rate limit (${MEETING_WRITES_PER_USER_PER_DAY}) of Meeting Create/Update API requests permitted for this particular user. You may resume these user-level requests at GMT 00:00:00.`;
    expect(v2LimitKindOf(userDay, 'Daily-limit')).toBe('user-daily');
  });

  it("takes an unknown text for the account's only when its headers say a per-second budget", () => {
    expect(v2LimitKindOf('Something new.', 'QPS')).toBe('account');
    expect(v2LimitKindOf('Something new.', 'Daily-limit')).toBe('unknown');
    expect(v2LimitKindOf('Something new.', undefined)).toBe('unknown');
  });
});
