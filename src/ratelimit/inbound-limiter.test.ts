import { describe, expect, it } from 'vitest';
import { parseRetryAfter, rateLimitHeaders } from './headers.js';
import { InboundLimiter, inboundOwnerOf } from './inbound-limiter.js';
import { MemoryBucketStore } from './memory-store.js';

function limiter(options: { enabled?: boolean; scale?: number } = {}) {
  const clock = { now: 1_000_000 };
  const store = new MemoryBucketStore({ now: () => clock.now });
  return { clock, inbound: new InboundLimiter({ store, ...options }) };
}

describe('InboundLimiter', () => {
  it('admits 10 general requests per second per key, then refuses with the v1 numbers', async () => {
    const { inbound, clock } = limiter();
    const decisions = [];
    for (let i = 0; i < 11; i++) decisions.push(await inbound.check('key', '/v1/user/get'));
    expect(decisions.slice(0, 10).every((d) => d.allowed)).toBe(true);
    expect(decisions[0]).toMatchObject({ limitClass: 'general', limit: 10, remaining: 9, retryAfterSeconds: 0 });
    expect(decisions[10]).toMatchObject({ allowed: false, limit: 10, remaining: 0, resetSeconds: 1, retryAfterSeconds: 1 });
    clock.now += 100;
    expect((await inbound.check('key', '/v1/user/get')).allowed).toBe(true);
  });

  it('holds each list, billing and plan endpoint to one request per second, each in buckets of its own', async () => {
    const { inbound, clock } = limiter();
    expect((await inbound.check('key', '/v1/user/list')).allowed).toBe(true);
    expect((await inbound.check('key', '/v1/user/list')).allowed).toBe(false);
    // Another list of the same key, at once: its own 1/s.
    expect(await inbound.check('key', '/v1/meeting/list')).toMatchObject({ allowed: true, limitClass: 'list-billing-plan', limit: 1 });
    expect((await inbound.check('key', '/V1/Meeting/List/')).allowed).toBe(false); // the same endpoint, however written
    expect((await inbound.check('key', '/v1/ma/account/plan/get')).allowed).toBe(true);
    // The general class is a separate budget.
    expect((await inbound.check('key', '/v1/user/get')).allowed).toBe(true);
    clock.now += 1000;
    expect((await inbound.check('key', '/V1/Meeting/List/')).allowed).toBe(true);
  });

  it('applies the per-minute and per-day rows to the paths they name', async () => {
    const { inbound, clock } = limiter();
    expect((await inbound.check('key', '/v1/metrics/meetings')).allowed).toBe(true);
    clock.now += 1_000;
    const refused = await inbound.check('key', '/v1/metrics/meetings');
    expect(refused).toMatchObject({ allowed: false, limitClass: 'metrics-minute', limit: 1, retryAfterSeconds: 59 });
    clock.now += 59_000;
    expect((await inbound.check('key', '/v1/metrics/meetings')).allowed).toBe(true);

    expect((await inbound.check('key', '/v1/report/getuserreport')).allowed).toBe(true);
    clock.now += 3_600_000;
    const daily = await inbound.check('key', '/v1/report/getuserreport');
    expect(daily.allowed).toBe(false);
    expect(daily.retryAfterSeconds).toBe(86_400 - 3_600);
  });

  it('keeps each api_key to its own buckets', async () => {
    const { inbound } = limiter();
    for (let i = 0; i < 10; i++) await inbound.check('a', '/v1/user/get');
    expect((await inbound.check('a', '/v1/user/get')).allowed).toBe(false);
    expect((await inbound.check('b', '/v1/user/get')).allowed).toBe(true);
  });

  it('scales every limit (RATE_LIMIT_SCALE)', async () => {
    const { inbound } = limiter({ scale: 5 });
    let admitted = 0;
    for (let i = 0; i < 60; i++) if ((await inbound.check('k', '/v1/user/get')).allowed) admitted++;
    expect(admitted).toBe(50);
  });

  it('admits everything and reports nothing when off', async () => {
    const { inbound } = limiter({ enabled: false });
    for (let i = 0; i < 100; i++) expect((await inbound.check('k', '/v1/user/list')).allowed).toBe(true);
    expect(rateLimitHeaders(await inbound.check('k', '/v1/user/list'))).toEqual({});
  });
});

describe('rateLimitHeaders', () => {
  it('gives X-RateLimit-* always and Retry-After when refused', async () => {
    const { inbound } = limiter();
    const ok = await inbound.check('k', '/v1/user/list');
    expect(rateLimitHeaders(ok)).toEqual({ 'X-RateLimit-Limit': '1', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '1' });
    const refused = await inbound.check('k', '/v1/user/list');
    expect(rateLimitHeaders(refused)).toEqual({
      'X-RateLimit-Limit': '1',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': '1',
      'Retry-After': '1',
    });
  });
});

describe('parseRetryAfter', () => {
  it('reads delta seconds and HTTP dates', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(' 0.5 ')).toBe(500);
    expect(parseRetryAfter(new Date(61_000).toUTCString(), 1_000)).toBe(60_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});

describe('inboundOwnerOf', () => {
  it("names the key's buckets for a proven pair and the pair's own for any other", () => {
    expect(inboundOwnerOf('key', undefined)).toBe('key');
    const a = inboundOwnerOf('key', 'hash-a');
    expect(a).not.toBe('key');
    expect(a).not.toBe(inboundOwnerOf('key', 'hash-b'));
    expect(a).not.toBe(inboundOwnerOf('other', 'hash-a'));
  });
});
