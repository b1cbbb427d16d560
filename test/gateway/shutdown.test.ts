import { afterEach, describe, expect, it } from 'vitest';
import { listen, type Listening } from '../support/listen.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';

/**
 * Graceful shutdown of a real gateway process: on SIGTERM the calls in flight are answered (their
 * v2 calls finish), new calls get the v1 unavailable error, /readyz turns 503, and the process
 * exits; past SHUTDOWN_GRACE_MS the calls still waiting are answered "unavailable", never reset.
 */
let upstream: (Listening & { answered: string[] }) | undefined;
let gateway: GatewayProcess | undefined;
afterEach(async () => {
  await gateway?.kill();
  await upstream?.close();
  gateway = upstream = undefined;
});

/** A v2 service that answers every call after `delayMs`, and counts what it answered. */
async function slowUpstream(delayMs: number) {
  const answered: string[] = [];
  const server = await listen(async (request) => {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    answered.push(new URL(request.url).pathname);
    return Response.json({ existed_email: true });
  });
  return Object.assign(server, { answered });
}

const checkEmail = (url: string, label = 'call', email = 'a@b.c') =>
  fetch(`${url}/v1/user/checkemail`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `api_key=k&api_secret=s&email=${encodeURIComponent(email)}`,
  }).then(
    async (r) => await r.json(),
    (error: Error & { cause?: Error }) => ({ failed: label, cause: error.cause?.message }),
  );

const exited = (child: GatewayProcess) => new Promise<number | null>((resolve) => child.onExit(resolve));

describe('SIGTERM', () => {
  it('answers every call in flight, refuses new ones, reports not ready, then exits 0', async () => {
    upstream = await slowUpstream(1_500);
    gateway = await startGatewayProcess({
      V2_BASE_URL: `${upstream.url}/v2`,
      V1_RATE_LIMITS: 'off',
      V2_RATE_LIMITS: 'off',
      LOG_LEVEL: 'silent',
    });
    expect((await fetch(`${gateway.url}/readyz`)).status).toBe(200);
    // Distinct emails: identical calls in flight would share one v2 GET (coalescing).
    const inFlight = Array.from({ length: 4 }, (_, i) => checkEmail(gateway!.url, `in flight ${i}`, `a${i}@b.c`));
    await new Promise((resolve) => setTimeout(resolve, 400));
    const exit = exited(gateway);
    gateway.signal('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const [ready, refused] = await Promise.all([fetch(`${gateway.url}/readyz`), checkEmail(gateway.url, 'refused')]);
    expect(ready.status).toBe(503);
    expect(refused).toEqual({ error: { code: 503, message: expect.stringMatching(/shutting down/) } });
    expect(await Promise.all(inFlight)).toEqual(Array(4).fill({ existed_email: true }));
    expect(upstream.answered.filter((path) => path === '/v2/users/email')).toHaveLength(4);
    expect(await exit).toBe(0);
  });

  it('past the grace, answers the calls still waiting with the v1 unavailable error, not a reset', async () => {
    upstream = await slowUpstream(20_000);
    gateway = await startGatewayProcess({
      V2_BASE_URL: `${upstream.url}/v2`,
      SHUTDOWN_GRACE_MS: '500',
      V1_RATE_LIMITS: 'off',
      V2_RATE_LIMITS: 'off',
      LOG_LEVEL: 'silent',
    });
    const inFlight = Array.from({ length: 3 }, () => checkEmail(gateway!.url));
    await new Promise((resolve) => setTimeout(resolve, 400));
    const exit = exited(gateway);
    gateway.signal('SIGTERM');
    const answers = await Promise.all(inFlight);
    for (const answer of answers) expect(answer).toEqual({ error: { code: 503, message: expect.any(String) } });
    expect(await exit).toBe(0);
  });
});
