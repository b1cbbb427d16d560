import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, openPage } from '../support/browser.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { postSignedEvent, startReceiver, type Receiver } from '../support/webhook-receivers.js';

/** Screenshots go here (git-ignored): test-output/ at the repository root. */
const OUTPUT_DIR = new URL('../../test-output/', import.meta.url);
const OWNER = 'owner@sandbox.v1gate.local';
const WEBHOOK_TOKEN = 'status-page-webhook-token';

/** Calls in a loop until stopped: one that succeeds and two that fail (code 300) per round, so two thirds are errors. */
function steadyLoad(gateway: TestGateway, workers: number) {
  let running = true;
  let calls = 0;
  const loops = Array.from({ length: workers }, async () => {
    while (running) {
      await gateway.v1('/user/checkemail', { email: OWNER });
      await gateway.v1('/user/get', {});
      await gateway.v1('/user/get', {});
      calls += 3;
    }
  });
  return {
    get calls() {
      return calls;
    },
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

describe('the status page in headless Chromium, under load', () => {
  let gateway: TestGateway;
  let browser: Browser;
  let receiver: Receiver;
  beforeAll(async () => {
    // A receiver that refuses the first three posts: one notification is dead-lettered, and its replay is delivered.
    receiver = await startReceiver('flaky:3');
    const dir = mkdtempSync(join(tmpdir(), 'v1gate-status-'));
    writeFileSync(join(dir, 'subs.json'), JSON.stringify([{ api_key: 'k', url: receiver.url }]));
    gateway = await startTestGateway(
      {
        V1_WEBHOOKS_FILE: join(dir, 'subs.json'),
        V1_WEBHOOKS_JOURNAL: join(dir, 'journal'),
        V2_WEBHOOK_SECRET_TOKEN: WEBHOOK_TOKEN,
        V1_WEBHOOKS_ANY_PORT: 'on',
        V1_WEBHOOKS_BACKOFF_MS: '10',
      },
      { statusHistoryStepMs: 1_000 },
    );
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await receiver?.stop();
  });

  it('shows the traffic in depth, colours a 66.7 % error rate red, draws the history, and replays a dead letter', async () => {
    const event = { event: 'meeting.ended', event_ts: 1, payload: { account_id: 'a', object: { id: 1, uuid: 'dead-1', host_id: 'h' } } };
    const posted = await postSignedEvent(gateway.url, WEBHOOK_TOKEN, JSON.stringify(event));
    expect(posted.status).toBe(200);

    const load = steadyLoad(gateway, 4);
    try {
      const { page, errors } = await openPage(browser);
      await page.goto(`${gateway.url}/status`);

      // Totals grow while the page is open, and the live error rate, about two thirds (a poll may cut a round of three), is red.
      await page.locator('#total-calls', { hasText: /^[1-9]\d*$/ }).waitFor();
      await page.locator('#error-rate', { hasText: /^[5-7]\d\.\d %$/ }).waitFor({ timeout: 20_000 });
      expect(await page.locator('#error-rate').getAttribute('class')).toBe('value level-bad');
      expect(await page.locator('#rate').textContent()).toMatch(/^\d+\.\d$/);

      // v1 error codes per endpoint, and their error rates in colour.
      const get = page.locator('tr[data-endpoint="/user/get"] td');
      await page.locator('tr[data-endpoint="/user/get"] td.codes', { hasText: /^300 × \d+$/ }).waitFor();
      expect(await get.nth(3).textContent()).toBe('100.0 %');
      expect(await get.nth(3).getAttribute('class')).toContain('level-bad');
      const checkemail = page.locator('tr[data-endpoint="/user/checkemail"] td');
      expect(await checkemail.nth(3).textContent()).toBe('0.0 %');
      expect(await checkemail.nth(3).getAttribute('class')).toContain('level-ok');
      expect(await checkemail.nth(4).textContent()).toBe('–');

      // The v2 route table: the declared template, its calls, no failures, a p99.
      const route = page.locator('tr[data-route="GET /users/email"] td');
      await route.first().waitFor();
      const [template, method, calls, clientErrors, failures, p99] = await route.allTextContents();
      expect([template, method, clientErrors, failures]).toEqual(['/users/email', 'GET', '0', '0']);
      expect(Number(calls)).toBeGreaterThan(0);
      expect(p99).toMatch(/ ms$/);

      // History: sparklines from a point a second, drawn inline.
      await page.waitForFunction("Number(document.getElementById('spark-calls').dataset.points) >= 3", undefined, { timeout: 20_000 });
      expect(await page.locator('#spark-calls polyline').count()).toBe(1);
      expect(await page.locator('#spark-errors').getAttribute('class')).toBe('spark level-bad');
      expect(await page.locator('tr[data-endpoint="/user/get"] svg polyline.errors').count()).toBe(1);

      // Limits and notifications in words, not metric names.
      const limits = page.locator('[data-section="limits"]');
      expect(await limits.locator('.summary').textContent()).toBe(
        "Limits off (V1_RATE_LIMITS, V2_RATE_LIMITS); kept in this process's memory.",
      );
      expect(await limits.locator('dt').first().textContent()).toBe('v1 calls refused (over their v1 limits)');
      expect(await page.locator('#sections').textContent()).not.toMatch(/v1gate_/);
      expect(await page.locator('[data-section="shadow"] .summary').textContent()).toMatch(/^Off: set V1_PRIMARY_URL/);

      // The notification is dead after three refusals: red, listed, and replayed from the page.
      const webhooks = page.locator('[data-section="webhooks"]');
      await webhooks.locator('.badge.level-bad').waitFor({ timeout: 20_000 });
      expect(await webhooks.locator('.summary').textContent()).toBe(
        '1 notification given up after every attempt: replay below once the receiver is fixed.',
      );
      const letter = page.locator('#dead-letters tbody tr');
      await letter.first().waitFor();
      expect(await letter.count()).toBe(1);
      expect(await letter.locator('td').nth(1).textContent()).toBe(new URL(receiver.url).host);
      expect(await letter.locator('td').nth(2).textContent()).toBe('3');

      mkdirSync(OUTPUT_DIR, { recursive: true });
      await page.screenshot({ path: new URL('status-page.png', OUTPUT_DIR).pathname, fullPage: true });

      await letter.locator('button', { hasText: 'Replay' }).click();
      await receiver.waitFor(1);
      expect(receiver.received.map((r) => r.body.uuid)).toEqual(['dead-1']);
      await page.locator('#dead-letters').waitFor({ state: 'hidden' });
      await webhooks.locator('.badge.level-ok').waitFor();
      expect(errors).toEqual([]);
    } finally {
      await load.stop();
    }
    expect(load.calls).toBeGreaterThan(30);
  }, 90_000);
});

describe('who may open the status page and replay', () => {
  it('asks for STATUS_TOKEN when one is set', async () => {
    const token = 'status-token-0123456789';
    const gateway = await startTestGateway({ STATUS_TOKEN: token });
    try {
      expect((await fetch(`${gateway.url}/status`)).status).toBe(401);
      expect((await fetch(`${gateway.url}/status/data?token=wrong-token-0123456789`)).status).toBe(401);
      expect((await fetch(`${gateway.url}/status?token=${token}`)).status).toBe(200);
      const data = await fetch(`${gateway.url}/status/data`, { headers: { authorization: `Bearer ${token}` } });
      expect(data.status).toBe(200);
      expect(await data.json()).toMatchObject({ version: '0.1.0', totals: { calls: 0, errors: 0 } });
      expect((await fetch(`${gateway.url}/status/dead-letters/x/replay`, { method: 'POST' })).status).toBe(401);
    } finally {
      await gateway.close();
    }
  });

  it('answers loopback callers without a token, and replays only with the token the page reads', async () => {
    const gateway = await startTestGateway();
    try {
      const data = await fetch(`${gateway.url}/status/data`);
      expect(data.status).toBe(200);
      const { csrf } = (await data.json()) as { csrf: string };
      // The token is good with its session's cookie only, which the page's fetch sends back.
      const cookie = (data.headers.get('set-cookie') ?? '').split(';')[0]!;
      const replay = (headers: Record<string, string>) =>
        fetch(`${gateway.url}/status/dead-letters/nope/replay`, { method: 'POST', headers: { cookie, ...headers } });
      // A form posted from another site carries none of it; a script of another site cannot read the token.
      expect((await replay({})).status).toBe(403);
      expect((await replay({ 'x-v1gate-csrf': 'guessed' })).status).toBe(403);
      expect((await replay({ 'x-v1gate-csrf': csrf, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
      expect((await replay({ 'x-v1gate-csrf': csrf, origin: 'http://evil.example' })).status).toBe(403);
      // The page's own request: accepted, and this gateway has no webhook journal to replay from.
      const own = await replay({ 'x-v1gate-csrf': csrf, 'sec-fetch-site': 'same-origin', origin: gateway.url });
      expect(own.status).toBe(404);
      expect(await own.json()).toEqual({ error: 'no webhook journal in this process' });
    } finally {
      await gateway.close();
    }
  });
});
