import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * A real headless Chromium for browser tests: Debian's `chromium` package (installed by `.ci/run`),
 * driven by playwright-core. Playwright's own browser download is neither needed nor possible here.
 *
 * The flags keep Chromium off the network it would otherwise call on start (component updates,
 * sync, QUIC probes): on a machine with no outside network those calls fail, many at a time.
 */

const EXECUTABLE_CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];

export function chromiumPath(): string {
  const found = EXECUTABLE_CANDIDATES.find((path): path is string => !!path && existsSync(path));
  if (!found) throw new Error("No Chromium: install Debian's `chromium` package (`.ci/run` does), or set CHROMIUM_PATH.");
  return found;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A page that collects console errors and uncaught page errors, for tests that assert there are none. */
export async function openPage(context: BrowserContext | Browser): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors };
}
