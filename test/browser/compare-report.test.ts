import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { compareCalls } from '../../src/compare/compare.js';
import { endpointFacts } from '../../src/compare/endpoint-facts.js';
import { renderHtmlReport } from '../../src/compare/html-report.js';
import { liveTarget } from '../../src/compare/replay.js';
import type { RecordedCall } from '../../src/compare/calls.js';
import { ALL_ENDPOINTS } from '../../src/translators/endpoints.js';
import { launchBrowser, openPage } from '../support/browser.js';
import { startFakeV1 } from '../support/fake-v1.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

/** Screenshots go here (git-ignored): test-output/ at the repository root. */
const OUTPUT_DIR = new URL('../../test-output/', import.meta.url);
const owner = 'owner@sandbox.v1gate.local';

/**
 * The compare report as a person opens it: a saved HTML file in a real headless Chromium. A real
 * comparison (the reference's example answers as A, a v1gate as B) gives it real differences,
 * noise and clean endpoints, in the order a person decides with them.
 */
describe('the compare report in headless Chromium', () => {
  let gateway: TestGateway;
  let fake: Awaited<ReturnType<typeof startFakeV1>>;
  let browser: Browser;
  let file: string;

  beforeAll(async () => {
    [gateway, fake, browser] = await Promise.all([startTestGateway(), startFakeV1(), launchBrowser()]);
    const me = await gateway.v1('/user/getbyemail', { email: owner });
    const call = (path: string, params: Record<string, string>): RecordedCall => ({
      time: '',
      path,
      params,
      dataType: 'JSON',
      answer: undefined,
      v2Calls: [],
      ms: 0,
    });
    const calls = [call('/user/get', { id: me.id }), call('/user/checkemail', { email: owner }), call('/group/create', { name: 'x' })];
    const creds = { apiKey: gateway.credentials.api_key, apiSecret: gateway.credentials.api_secret };
    const report = await compareCalls(calls, {
      a: liveTarget(fake.url, creds),
      b: liveTarget(gateway.url, creds),
      writes: false,
      ...endpointFacts(ALL_ENDPOINTS),
    });
    mkdirSync(OUTPUT_DIR, { recursive: true });
    file = new URL('compare-report.html', OUTPUT_DIR).pathname;
    writeFileSync(file, renderHtmlReport(report));
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([gateway?.close(), fake?.close()]);
  });

  it('opens with the summary and verdicts, then the real differences side by side, the noise folded, the ready endpoints in one table', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`file://${file}`);
    const sections = await page.locator('body > section').evaluateAll((nodes) => nodes.map((n) => n.id));
    expect(sections).toEqual(['summary', 'differences', 'noise', 'ready', 'not-exercised']);
    expect(await page.locator('#summary-line').textContent()).toMatch(
      /^3 recorded calls: 2 compared \(1 with real differences\), 1 write not replayed\./,
    );
    // Verdicts: what differs first, each with its badge.
    expect(await page.locator('#verdicts tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-verdict')))).toEqual([
      'differs',
      'ready',
      'not exercised',
    ]);
    expect(await page.locator('#verdicts tr[data-endpoint="/user/get"] .badge').textContent()).toBe('differs');

    // A real difference: the field, where it comes from, and A and B side by side (A's column left of B's).
    const email = page.locator('#differences .field[data-field="email"]');
    expect(await email.locator('.why').textContent()).toBe('mappings/user-fields.ts USER_FIELDS: email ↔ email (same)');
    const [sideA, sideB] = await email.locator('.pair > div').all();
    expect(await sideA!.textContent()).toBe('A"email_address"');
    expect(await sideB!.textContent()).toBe(`B"${owner}"`);
    const [boxA, boxB] = [await sideA!.boundingBox(), await sideB!.boundingBox()];
    expect(boxA!.x + boxA!.width).toBeLessThanOrEqual(boxB!.x);
    expect(Math.abs(boxA!.y - boxB!.y)).toBeLessThan(2);

    // Noise: folded behind its count, opened on a click.
    const noise = page.locator('#noise details[data-endpoint="/user/get"]');
    expect(await noise.locator('summary').textContent()).toMatch(/^\/v1\/user\/get: \d+ expected differences in \d+ fields$/);
    expect(await noise.locator('table').isVisible()).toBe(false);
    await noise.locator('summary').click();
    expect(await noise.locator('table').isVisible()).toBe(true);
    expect(await noise.locator('tr', { hasText: 'minted identifier' }).count()).toBeGreaterThan(0);

    expect(await page.locator('#ready-table tr[data-endpoint="/user/checkemail"] td').first().textContent()).toBe('/v1/user/checkemail');
    await page.screenshot({ path: new URL('compare-report.png', OUTPUT_DIR).pathname, fullPage: true });
    expect(errors).toEqual([]);
  });
});
