import { takeToken, type BucketSpec, type BucketState } from '../shared/token-bucket.js';
import { templatePattern, type RateLimitCategory } from '../v2-contract/v2-route.js';
import { ALL_V2_ROUTES } from '../v2-contract/v2-routes.js';
import { SandboxError, V2Code } from './errors.js';
import { PLAN_LIMITS, scaledCount, spendsHeavyDay, type RateLimitPlan } from '../v2-contract/rate-limit-plans.js';

/**
 * The v2 service's limits as it applies them today (docs/live-evidence.md, "Today's v2 rate
 * limits"): per account (every app and key of it together), by the account's plan, by the
 * category each endpoint carries, with the daily cap Heavy and Resource-intensive calls share,
 * and a user's 100 meeting creates and updates a UTC day. Every answer says where the caller
 * stands in `X-RateLimit-*` headers; a 429 adds `Retry-After`.
 */

export { DEFAULT_RATE_LIMIT_PLAN, PLAN_LIMITS, RATE_LIMIT_PLANS } from '../v2-contract/rate-limit-plans.js';
export type { CategoryLimit, PlanLimits, RateLimitPlan } from '../v2-contract/rate-limit-plans.js';

/** A user's meeting and webinar creates and updates per UTC day (one count: the host's). */
export const MEETING_WRITES_PER_USER_PER_DAY = 100;
/** Adds of one registrant (by email) to one meeting or webinar per UTC day. */
export const REGISTRANT_ADDS_PER_DAY = 3;
/** Status changes of one registrant in one meeting or webinar per UTC day. */
export const REGISTRANT_STATUS_CHANGES_PER_DAY = 10;

/** How the service names a category in `X-RateLimit-Category`. */
export const CATEGORY_LABEL: Record<RateLimitCategory, string> = {
  light: 'Light',
  medium: 'Medium',
  heavy: 'Heavy',
  'resource-intensive': 'Resource-intensive',
};

/** `scale` multiplies every count (tests and benchmarks lower or raise them); 1 is the service's. */
export interface SandboxLimits {
  scale: number;
}

export const SPEC_LIMITS: SandboxLimits = { scale: 1 };

/**
 * What a call is: its category, and for a meeting or webinar create or update, the path value
 * naming whose day it spends (the user, or the session whose host it is).
 */
export interface CallKind {
  category: RateLimitCategory;
  meetingWrite?: { userRef: string } | { sessionRef: string; kind: 'meeting' | 'webinar' };
}

/** The creates and updates that spend their host's day (the documents: "applied to the userId of the host"). */
const SESSION_WRITES: Record<string, (ref: string) => NonNullable<CallKind['meetingWrite']>> = {
  'POST /users/{userId}/meetings': (userRef) => ({ userRef }),
  'POST /users/{userId}/webinars': (userRef) => ({ userRef }),
  'PATCH /meetings/{meetingId}': (sessionRef) => ({ sessionRef, kind: 'meeting' }),
  'PATCH /webinars/{webinarId}': (sessionRef) => ({ sessionRef, kind: 'webinar' }),
};

const compiled = ALL_V2_ROUTES.map((route) => ({
  route,
  pattern: templatePattern(route.template, { capture: true }),
}));

/**
 * The category of a request (path relative to /v2), read from the route catalogue's labels; a
 * path the gateway never calls is Light, the label of most single-resource calls.
 */
export function callKindOf(method: string, path: string): CallKind {
  for (const { route, pattern } of compiled) {
    if (route.method !== method) continue;
    const match = pattern.exec(path);
    if (!match) continue;
    const write = SESSION_WRITES[`${route.method} ${route.template}`];
    if (write) return { category: route.category, meetingWrite: write(decodeURIComponent(match[1]!)) };
    return { category: route.category };
  }
  return { category: 'light' };
}

/** What the answer says of the caller's standing: the `X-RateLimit-*` headers. */
export interface RateLimitStanding {
  category: RateLimitCategory;
  type: 'QPS' | 'Daily-limit';
  limit: number;
  remaining: number;
}

export function standingHeaders(standing: RateLimitStanding): Record<string, string> {
  return {
    'X-RateLimit-Category': CATEGORY_LABEL[standing.category],
    'X-RateLimit-Type': standing.type,
    'X-RateLimit-Limit': String(standing.limit),
    'X-RateLimit-Remaining': String(Math.max(0, standing.remaining)),
  };
}

/** The next 00:00 UTC after `nowMs`: when a daily count starts again. */
export function nextUtcMidnightMs(nowMs: number): number {
  return (Math.floor(nowMs / 86_400_000) + 1) * 86_400_000;
}

export class SandboxRateLimiter {
  private readonly buckets = new Map<string, BucketState>();
  /** Daily counts by `account:key` of the UTC day they count (`day`). */
  private readonly daily = new Map<string, { day: number; count: number }>();

  constructor(private readonly limits: SandboxLimits) {}

  /**
   * Take the call's share of every limit it falls under (all or none), or throw the 429 of the
   * first it exceeds. `userId` resolves a meeting write's user (undefined: no such user, so no
   * user's day is spent and the route answers its 404). Returns the standing the answer reports.
   */
  admit(account: { id: string; plan: RateLimitPlan }, kind: CallKind, userId: string | undefined, nowMs: number): RateLimitStanding {
    const day = Math.floor(nowMs / 86_400_000);
    const userDay = kind.meetingWrite && userId !== undefined ? this.dayCount(`${account.id}:meeting-writes:${userId}`, day) : undefined;
    const userCap = this.scaled(MEETING_WRITES_PER_USER_PER_DAY);
    if (userDay && userDay.count >= userCap) throw exceeded('userDay', kind.category, userCap, { atMs: nextUtcMidnightMs(nowMs) });

    const plan = PLAN_LIMITS[account.plan];
    const heavy = spendsHeavyDay(kind.category);
    const heavyDay = heavy ? this.dayCount(`${account.id}:heavy`, day) : undefined;
    const heavyCap = this.scaled(plan.heavyPerDay);
    if (heavyDay && heavyDay.count >= heavyCap) throw exceeded('accountDay', kind.category, heavyCap, { atMs: nextUtcMidnightMs(nowMs) });

    const limit = plan.categories[kind.category];
    const count = this.scaled(limit.count);
    const spec: BucketSpec = { ratePerSecond: count / limit.perSeconds, burst: count };
    const key = `${account.id}:${kind.category}`;
    const taken = takeToken(this.buckets.get(key), spec, nowMs);
    if (!taken.allowed) throw exceeded('rate', kind.category, count, { afterMs: taken.retryAfterMs });
    this.buckets.set(key, taken.state);
    if (heavyDay) heavyDay.count++;
    if (userDay) {
      userDay.count++;
      return { category: kind.category, type: 'Daily-limit', limit: userCap, remaining: userCap - userDay.count };
    }
    return { category: kind.category, type: 'QPS', limit: count, remaining: Math.floor(taken.state.tokens) };
  }

  /**
   * Spend one of a resource's own daily count (a registrant's adds or status changes in one
   * session), or throw its 429: the account's budgets are untouched, and nobody else's calls are.
   */
  spendResourceDay(accountId: string, resource: ResourceLimit, nowMs: number): void {
    const day = this.dayCount(`${accountId}:resource:${resource.key}`, Math.floor(nowMs / 86_400_000));
    const cap = this.scaled(resource.perDay);
    if (day.count >= cap) {
      throw new LimitExceededError(
        resource.message(cap),
        { category: resource.category, type: 'Daily-limit', limit: cap, remaining: 0 },
        { atMs: nextUtcMidnightMs(nowMs) },
      );
    }
    day.count++;
  }

  private scaled(count: number): number {
    return scaledCount(count, this.limits.scale);
  }

  private dayCount(key: string, day: number): { day: number; count: number } {
    let entry = this.daily.get(key);
    if (!entry || entry.day !== day) {
      entry = { day, count: 0 };
      this.daily.set(key, entry);
    }
    return entry;
  }
}

/** A resource's own daily limit: whose count (`key`), how many a day, and the service's words past it. */
export interface ResourceLimit {
  key: string;
  perDay: number;
  category: RateLimitCategory;
  message: (limit: number) => string;
}

/**
 * A registrant's adds to one meeting or webinar: "You have exceeded the daily rate limit of (3)
 * for Add a webinar registrant API requests for the registrant (user@example.com). You can resume
 * these API requests at GMT 00:00:00." (docs/live-evidence.md, "Whose limit a 429 is").
 */
export function registrantAdds(kind: 'meeting' | 'webinar', sessionId: string | number, email: string): ResourceLimit {
  return {
    key: `${kind}:${sessionId}:add:${email.toLowerCase()}`,
    perDay: REGISTRANT_ADDS_PER_DAY,
    category: 'light',
    message: (limit) =>
      `You have exceeded the daily rate limit of (${limit}) for Add a ${kind} registrant API requests for the registrant (${email}). ` +
      'You can resume these API requests at GMT 00:00:00.',
  };
}

/** A registrant's status changes in one meeting or webinar: "... of (10) for webinar Update registrant's status API requests for the registrant". */
export function registrantStatusChanges(kind: 'meeting' | 'webinar', sessionId: string | number, who: string): ResourceLimit {
  return {
    key: `${kind}:${sessionId}:status:${who.toLowerCase()}`,
    perDay: REGISTRANT_STATUS_CHANGES_PER_DAY,
    category: 'medium',
    message: (limit) =>
      `You have exceeded the daily rate limit of (${limit}) for ${kind} Update registrant's status API requests for the registrant (${who}). ` +
      'You can resume these API requests at GMT 00:00:00.',
  };
}

/**
 * Another operation on the same resource is in flight ("Some APIs have limits on concurrent
 * operations performed on a single resource", the rate-limits page): the text the service's
 * refusal carries. It names no budget, so it carries no `X-RateLimit-Type`.
 */
export const CONCURRENT_REQUESTS_MESSAGE = 'Too many concurrent requests';

/** A 429: its standing headers and `Retry-After`, seconds for a rate, the reset's time for a day. */
export class LimitExceededError extends SandboxError {
  constructor(
    message: string,
    readonly standing: RateLimitStanding,
    readonly retryAfter: { afterMs: number } | { atMs: number },
  ) {
    super(429, V2Code.rateLimited, message);
  }
}

/** The limits a call can exceed: the standing type each reports and v2's message for it. */
const EXCEEDED = {
  rate: { type: 'QPS', message: () => 'You have reached the maximum per-second rate limit for this API. Try again later.' },
  accountDay: {
    type: 'Daily-limit',
    message: () =>
      'You have reached the maximum daily rate limit for this API. Refer to the response header for details on when you can make another request.',
  },
  userDay: {
    type: 'Daily-limit',
    message: (limit: number) =>
      `You have exceeded the daily rate limit (${limit}) of Meeting Create/Update API requests permitted for this particular user. ` +
      'You may resume these user-level requests at GMT 00:00:00.',
  },
} as const;

/** The 429 of exceeding `which` limit (`limit` calls) of `category`: retried after a wait (a rate) or at the day's reset. */
function exceeded(
  which: keyof typeof EXCEEDED,
  category: RateLimitCategory,
  limit: number,
  retryAfter: { afterMs: number } | { atMs: number },
): LimitExceededError {
  const { type, message } = EXCEEDED[which];
  return new LimitExceededError(message(limit), { category, type, limit, remaining: 0 }, retryAfter);
}
