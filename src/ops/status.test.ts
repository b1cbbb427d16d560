import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import type { ShadowStats } from '../compare/shadow.js';
import type { ShadowMismatch } from '../compare/shadow-tally.js';
import { createRateLimiters, rateLimitConfig, type RateLimiters } from '../ratelimit/index.js';
import { GatewayMetrics } from './metrics.js';
import { PrivateAccess } from '../shared/private-access.js';
import { mountStatusPage, type StatusData } from './status.js';
import { limiterSection, shadowSection, webhookSection } from './status-sections.js';

const TOKEN = 'status-test-token-0123456789';
const open: { close(): void | Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

function limiters(): RateLimiters {
  const made = createRateLimiters(rateLimitConfig());
  open.push(made);
  return made;
}

describe('the status sections say in words how things stand', () => {
  it('names a shared store that cannot be reached, and what the failure policy does', () => {
    const section = limiterSection({
      limiters: limiters(),
      v1Enabled: true,
      v2Enabled: true,
      store: 'redis',
      failover: { stats: { failures: 7, degraded: true } },
      policy: 'open',
    });
    expect(section).toMatchObject({
      level: 'bad',
      summary: 'v1 and v2 limits on; Redis is unreachable: failing open, limits kept per process.',
    });
    expect(section.rows.find((r) => r.label === 'Shared store errors')?.value).toBe('7');
  });

  it('counts notifications and dead letters, and shadow differences against the thresholds', () => {
    const stats = { deliveries: 3, retries: 1, deadLetters: 0, journalDepth: 2, receiverQueueDepth: { 'http://r.example:81': 2 } };
    expect(webhookSection(stats, 0)).toMatchObject({ level: 'warn', summary: '2 notifications waiting to be delivered.' });
    expect(webhookSection(stats, 0).rows.at(-1)).toEqual({ label: 'Queued per receiver', value: 'r.example:81 2' });
    const mismatch: ShadowMismatch = { endpoint: '/user/get', field: 'email', kind: 'value', count: 3, why: 'email', examples: [] };
    const shadow: ShadowStats = {
      forwarded: 300,
      compared: 200,
      mismatchedCalls: 3,
      dropped: 0,
      limited: 1,
      errors: 0,
      interrupted: 0,
      tooLarge: 0,
      mismatches: [mismatch],
    };
    expect(shadowSection(shadow)).toMatchObject({
      level: 'bad',
      summary: '1.5 % of 200 compared calls differ from the real v1: see /shadow/report.',
    });
    expect(shadowSection({ ...shadow, mismatchedCalls: 0, mismatches: [] }).level).toBe('ok');
  });
});

describe('/status/data', () => {
  it('renders a cut-over section when the part that decides it provides one', async () => {
    const root = new Hono();
    const page = mountStatusPage(root, {
      metrics: new GatewayMetrics({ perKey: undefined, processMetrics: false }),
      readiness: {
        draining: () => false,
        limiterStoreReachable: async () => true,
        limiterFailurePolicy: undefined,
        upstreamUrl: 'http://127.0.0.1:9/v2',
        deadlineMs: 50,
        fetch: async () => new Response(null, { status: 401 }),
      },
      endpoints: [],
      token: TOKEN,
      access: new PrivateAccess({ hosts: ['localhost'], trustedProxies: [] }),
      redisConfigured: false,
      limits: { limiters: limiters(), v1Enabled: true, v2Enabled: true, store: 'memory', failover: undefined, policy: undefined },
      webhooks: undefined,
      cutover: () => ({ id: 'cutover', title: 'Cut-over', level: 'warn', summary: 'Promote /user/get when 1,000 calls match.', rows: [] }),
    });
    open.push(page);
    const response = await root.request('/status/data', { headers: { host: 'localhost', authorization: `Bearer ${TOKEN}` } });
    const data = (await response.json()) as StatusData;
    expect(data.sections.map((s) => s.id)).toEqual(['limits', 'cutover']);
    expect(data.shadowMode).toBe(true);
    expect(data.deadLetters).toBeUndefined();
  });
});
