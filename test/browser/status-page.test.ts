import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, openPage } from '../support/browser.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

/** Screenshots go here (git-ignored): test-output/ at the repository root. */
const OUTPUT_DIR = new URL('../../test-output/', import.meta.url);

describe('the status page in headless Chromium', () => {
  let gateway: TestGateway;
  let browser: Browser;
  beforeAll(async () => {
    gateway = await startTestGateway();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  it('loads without console errors, shows the traffic sent, updates live, and is screenshotted', async () => {
    const owner = 'owner@sandbox.v1gate.local';
    for (let i = 0; i < 4; i++) await gateway.v1('/user/checkemail', { email: owner });
    await gateway.v1('/user/get', {});
    const { page, errors } = await openPage(browser);
    await page.goto(`${gateway.url}/status`);
    await page.locator('#total-calls', { hasText: /^5$/ }).waitFor();
    const checkemail = page.locator('tr[data-endpoint="/user/checkemail"] td');
    expect(await checkemail.allTextContents()).toEqual(['/user/checkemail', '4', '0', expect.stringMatching(/ms$/)]);
    expect((await page.locator('tr[data-endpoint="/user/get"] td').allTextContents()).slice(1, 3)).toEqual(['1', '1']);
    expect(await page.locator('#upstream').textContent()).toBe('ok');
    expect(await page.locator('#redis').textContent()).toBe('in memory');
    expect(await page.locator('#coverage').textContent()).toMatch(
      /^\d+ of \d+ spec endpoints served .* mapped, \d+ approximated, \d+ dropped\.$/,
    );

    // Live: more traffic shows up without reloading, with a rate and an error rate.
    for (let i = 0; i < 3; i++) await gateway.v1('/user/get', {});
    await page.locator('#total-calls', { hasText: /^8$/ }).waitFor();
    await page.locator('tr[data-endpoint="/user/get"] td:nth-child(3)', { hasText: /^4$/ }).waitFor();
    expect(await page.locator('#rate').textContent()).toMatch(/^\d+\.\d$/);
    expect(await page.locator('#error-rate').textContent()).toMatch(/^\d+\.\d %$/);

    mkdirSync(OUTPUT_DIR, { recursive: true });
    await page.screenshot({ path: new URL('status-page.png', OUTPUT_DIR).pathname, fullPage: true });
    expect(errors).toEqual([]);
  });
});

describe('who may open the status page', () => {
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
    } finally {
      await gateway.close();
    }
  });

  it('answers loopback callers without a token', async () => {
    const gateway = await startTestGateway();
    try {
      expect((await fetch(`${gateway.url}/status/data`)).status).toBe(200);
    } finally {
      await gateway.close();
    }
  });
});
