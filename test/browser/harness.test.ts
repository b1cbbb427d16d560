import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, openPage } from '../support/browser.js';
import { listen, type Listening } from '../support/listen.js';

/** The browser harness itself: Debian's Chromium starts headless and runs a page's script. */
describe('headless Chromium', () => {
  let browser: Browser;
  let site: Listening;

  beforeAll(async () => {
    browser = await launchBrowser();
    site = await listen(
      () =>
        new Response(
          '<!doctype html><title>t</title><p id="out"></p><script>document.getElementById("out").textContent = String(6 * 7);</script>',
          {
            headers: { 'content-type': 'text/html' },
          },
        ),
    );
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  it('loads a loopback page and runs its script, with no console errors', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(site.url);
    expect(await page.textContent('#out')).toBe('42');
    expect(errors).toEqual([]);
  });
});
