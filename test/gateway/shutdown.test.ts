import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorText, expectErrorText } from '../support/error-text.js';
import { startFaultUpstream, type FaultUpstream } from '../support/fault-upstream.js';
import { listen, type Listening } from '../support/listen.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';
import { uniqueEmail } from '../support/v1-answers.js';
import { postV1 } from '../support/v1-form.js';

/**
 * Graceful shutdown of a real gateway process: on SIGTERM the calls in flight are answered (their
 * v2 calls finish), new calls get the v1 unavailable error, /readyz turns 503, and the process
 * exits; past SHUTDOWN_GRACE_MS the calls still waiting are answered "unavailable", never reset,
 * and a call that was half done is undone: its rollback outlives the drain.
 */
let upstream: HeldUpstream | undefined;
let gateway: GatewayProcess | undefined;
afterEach(async () => {
  upstream?.release();
  await gateway?.kill();
  await upstream?.close();
  gateway = upstream = undefined;
});

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

type HeldUpstream = Listening & { received: string[]; answered: string[]; hold(): void; release(): void };

/**
 * A v2 service that counts the email checks it received and answered and, once told to hold,
 * holds them until the test releases them: a call is in flight for as long as the test needs,
 * however slow the machine, instead of for a fixed time the test must then outrun. Other paths
 * (the readiness probe's) are answered at once.
 */
async function heldUpstream(): Promise<HeldUpstream> {
  const received: string[] = [];
  const answered: string[] = [];
  let gate: Promise<void> | undefined;
  let open = () => {};
  const server = await listen(async (request) => {
    const path = new URL(request.url).pathname;
    if (path === '/v2/users/email') {
      received.push(path);
      await gate;
    }
    answered.push(path);
    return Response.json({ existed_email: true });
  });
  const hold = () => (gate = new Promise<void>((resolve) => (open = resolve)));
  return Object.assign(server, { received, answered, hold, release: () => open() });
}

/**
 * A gateway over `upstream` that has seen v2 accept its key's pair once: until then it sends one
 * call of an unproven pair to v2 at a time, and the test needs the calls it starts all at v2 at once.
 */
async function gatewayWithProvenKey(upstream: HeldUpstream, env: Record<string, string> = {}): Promise<GatewayProcess> {
  const started = await startGatewayProcess({
    V2_BASE_URL: `${upstream.url}/v2`,
    V1_RATE_LIMITS: 'off',
    V2_RATE_LIMITS: 'off',
    LOG_LEVEL: 'silent',
    ...env,
  });
  expect(await checkEmail(started.url, 'proof', 'proof@b.c')).toEqual({ existed_email: true });
  upstream.received.length = upstream.answered.length = 0;
  upstream.hold();
  return started;
}

/** Polls until `check` passes, for up to 30 s: a loaded machine may take seconds to get there. */
const until = (check: () => unknown) => vi.waitFor(async () => expect(await check()).toBeTruthy(), { timeout: 30_000, interval: 25 });

/** Whether the gateway says it is draining on /readyz (503 with the draining check failed). */
const saysDraining = async (url: string) => {
  const response = await fetch(`${url}/readyz`);
  const body = (await response.json()) as { checks: { draining: { detail: string } } };
  return response.status === 503 && body.checks.draining.detail === 'draining';
};

describe('SIGTERM', () => {
  it('answers every call in flight, refuses new ones, reports not ready, then exits 0', async () => {
    upstream = await heldUpstream();
    gateway = await gatewayWithProvenKey(upstream);
    expect((await fetch(`${gateway.url}/readyz`)).status).toBe(200);
    // Distinct emails: identical calls in flight would share one v2 GET (coalescing).
    const inFlight = Array.from({ length: 4 }, (_, i) => checkEmail(gateway!.url, `in flight ${i}`, `a${i}@b.c`));
    // Each is in flight once v2 holds its call; none is answered before the drain has begun.
    await until(() => upstream!.received.length === 4);
    const exit = exited(gateway);
    gateway.signal('SIGTERM');
    await until(() => saysDraining(gateway!.url));
    expect(await checkEmail(gateway.url, 'refused')).toEqual({ error: { code: 503, message: expect.stringMatching(/shutting down/) } });
    upstream.release();
    expect(await Promise.all(inFlight)).toEqual(Array(4).fill({ existed_email: true }));
    expect(upstream.answered.filter((path) => path === '/v2/users/email')).toHaveLength(4);
    expect(await exit).toBe(0);
  });

  it('past the grace, answers the calls still waiting with the v1 unavailable error, not a reset', async () => {
    upstream = await heldUpstream(); // never released: the calls outlast the grace
    gateway = await gatewayWithProvenKey(upstream, { SHUTDOWN_GRACE_MS: '500' });
    const inFlight = Array.from({ length: 3 }, (_, i) => checkEmail(gateway!.url, `in flight ${i}`, `a${i}@b.c`));
    await until(() => upstream!.received.length === 3);
    const exit = exited(gateway);
    gateway.signal('SIGTERM');
    const answers = await Promise.all(inFlight);
    for (const answer of answers) expect(answer).toEqual({ error: { code: 503, message: expect.any(String) } });
    expect(upstream.answered).not.toContain('/v2/users/email');
    expect(await exit).toBe(0);
  });
});

/**
 * A create half done when the grace ends, over a real sandbox behind a proxy that can hold a
 * request: the sandbox is the truth each answer is checked against.
 */
describe('SIGTERM past the grace, mid-create', () => {
  let sandbox: RunningSandbox | undefined;
  let faults: FaultUpstream | undefined;
  afterEach(async () => {
    await gateway?.kill();
    await faults?.close();
    await sandbox?.close();
    gateway = faults = sandbox = undefined;
  });

  async function startOverSandbox(env: Record<string, string>) {
    sandbox = await startSandbox();
    // The sandbox by another name than the proxy's 127.0.0.1: the token's api_url (the sandbox's own
    // origin) then names no host of the proxy's, and the gateway keeps sending through the proxy.
    faults = await startFaultUpstream(`${sandbox.url.replace('127.0.0.1', 'localhost')}/v2`);
    const credentials = { api_key: sandbox.sandbox.credentials.apiKey, api_secret: sandbox.sandbox.credentials.apiSecret };
    // UPSTREAM_TIMEOUT_MS is also the time rollbacks get past the grace.
    const base = {
      V2_BASE_URL: faults.url,
      SHUTDOWN_GRACE_MS: '500',
      UPSTREAM_TIMEOUT_MS: '20000',
      V1_RATE_LIMITS: 'off',
      LOG_LEVEL: 'silent',
    };
    gateway = await startGatewayProcess({ ...base, ...env });
    return credentials;
  }

  const seen = (method: string) => faults!.seen.filter((request) => request.method === method);
  const userExists = async (email: string) => (await sandbox!.v2('GET', `/users/${encodeURIComponent(email)}`)).status !== 404;

  it('a step in flight fails, saying it may have been applied, and the user it created is deleted after the grace', async () => {
    const credentials = await startOverSandbox({ V2_RATE_LIMITS: 'off' });
    // The user's own fields (PATCH /users/{id}) never get an answer; its settings do.
    faults!.rules.push({ method: 'PATCH', path: /^\/users\/[^/]+$/, fault: { kind: 'hang' } });
    const email = uniqueEmail('drain-in-flight');
    const answer = postV1(gateway!.url, '/user/custcreate', { ...credentials, email, type: '1', dept: 'Sales' }).then((r) => r.json());
    await until(() => seen('PATCH').some((request) => request.fault === 'hang'));
    const exit = exited(gateway!);
    gateway!.signal('SIGTERM');
    expect(await answer).toEqual({
      error: {
        code: 503,
        message: expect.stringMatching(
          /may or may not have been applied; check before retrying a write\. Its earlier steps were undone\.$/,
        ),
      },
    });
    expect(seen('DELETE')).toHaveLength(1);
    expect(await userExists(email)).toBe(false);
    expect(await exit).toBe(0);
  });

  it('a step still waiting for its token is withdrawn, said not applied, and the user it created is deleted', async () => {
    // A Light call every 3.3 s for the account (a Pro plan's 30/s scaled by 0.01, a burst of one): the
    // create's next steps wait for their tokens past the grace.
    const credentials = await startOverSandbox({ V2_RATE_LIMITS: 'on', RATE_LIMIT_SCALE: '0.01' });
    const email = uniqueEmail('drain-unsent');
    const answer = postV1(gateway!.url, '/user/custcreate', { ...credentials, email, type: '1', dept: 'Sales' }).then((r) => r.json());
    // The create itself (POST /users), not the OAuth token request that comes before it.
    await until(() => seen('POST').some((request) => request.path === '/users'));
    const exit = exited(gateway!);
    gateway!.signal('SIGTERM');
    // The evidence table's words: the withdrawn step's text, then what became of the steps before it.
    expectErrorText(((await answer) as { error: unknown }).error, 'steps-undone', [
      errorText('withdrawn', ['v1gate is shutting down: this v2 call was not sent.']),
    ]);
    // The user's own fields (PATCH /users/{id}, Light) were withdrawn; its settings (Medium, a budget of its own) may have gone.
    expect(seen('PATCH').filter((request) => !request.path.endsWith('/settings'))).toHaveLength(0);
    expect(seen('DELETE')).toHaveLength(1);
    expect(await userExists(email)).toBe(false);
    expect(await exit).toBe(0);
  });
});
