import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startGateway, type RunningGateway } from '../../src/gateway.js';
import { PROOF_LIMITS } from '../../src/ratelimit/proof-budget.js';
import { createSandbox, mountSandbox } from '../../src/sandbox/app.js';
import { SPEC_LIMITS } from '../../src/sandbox/rate-limit.js';
import { rememberSecret, testLogEnv } from '../support/gateway.js';
import { listen, type Listening } from '../support/listen.js';

/**
 * Someone who knows only an api_key (it is public in every browser-SDK page) floods wrong secrets
 * for it, ≈60 a second, while the key's owner calls: a real gateway over a real sandbox that
 * enforces v2's own limits, both on loopback. The sandbox counts every v2 call it answers, so the
 * attacker's are counted where they land (each is a 401). Every assertion is on counts.
 */

const EMAIL = { email: 'owner@sandbox.v1gate.local' };
const ATTACK_PER_SECOND = 60;
/** This process sends the flood and answers it (gateway and sandbox run here): a loaded machine takes longer. */
const FLOOD_TEST_MS = 120_000;

/** The v2 calls the sandbox answered: refused (401, a wrong secret) and the rest (the owner's). */
const seen = { refused: 0, accepted: 0 };
let upstream: Listening;
let owner: { api_key: string; api_secret: string };
let gateway: RunningGateway | undefined;

beforeAll(async () => {
  const sandbox = createSandbox({ limits: SPEC_LIMITS });
  const root = new Hono();
  root.use('/v2/*', async (c, next) => {
    await next();
    if (c.res.status === 401) seen.refused++;
    else seen.accepted++;
  });
  mountSandbox(root, sandbox);
  upstream = await listen(root.fetch);
  owner = { api_key: sandbox.credentials.apiKey, api_secret: sandbox.credentials.apiSecret };
  rememberSecret(owner.api_secret);
});

afterAll(async () => {
  await gateway?.close();
  await upstream.close();
});

/** A gateway with both limits on, as deployed; a restart is a new one over the same upstream, remembering nothing. */
async function restart(env: Record<string, string> = {}): Promise<RunningGateway> {
  await gateway?.close();
  const config = loadConfig({
    PORT: '0',
    V2_BASE_URL: `${upstream.url}/v2`,
    V1_RATE_LIMITS: 'on',
    V2_RATE_LIMITS: 'on',
    ...testLogEnv(),
    ...env,
  });
  gateway = await startGateway(config);
  return gateway;
}

interface Reply {
  body: any;
  v2Calls: number;
}

async function post(path: string, fields: Record<string, string>): Promise<Reply> {
  const response = await fetch(`${gateway!.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { body: await response.json(), v2Calls: Number(response.headers.get('x-v2-calls') ?? 0) };
}

/**
 * Wrong secrets for the owner's key, ATTACK_PER_SECOND a second, each a fresh random one, sent
 * without waiting for answers (an open loop: a slow answer does not slow the attack), until
 * stopped. A loaded machine runs the timer late and sends fewer a second: what a test needs of the
 * flood it counts in requests sent (`underWay`), not in time. Returns how long it ran and every answer.
 */
function attack(path: string, fields: Record<string, string>) {
  const replies: Promise<Reply>[] = [];
  const started = Date.now();
  const timer = setInterval(() => {
    replies.push(post(path, { ...fields, api_key: owner.api_key, api_secret: randomBytes(18).toString('base64url') }));
  }, 1000 / ATTACK_PER_SECOND);
  return {
    /** Requests sent so far. */
    sent: () => replies.length,
    async stop() {
      clearInterval(timer);
      const seconds = (Date.now() - started) / 1000;
      return { seconds, replies: await Promise.all(replies) };
    },
  };
}

/** Waits until the flood has sent `seconds` of requests at its pace (longer, on a loaded machine). */
async function underWay(flood: ReturnType<typeof attack>, seconds: number): Promise<void> {
  const count = Math.ceil(ATTACK_PER_SECOND * seconds);
  await vi.waitFor(() => expect(flood.sent()).toBeGreaterThanOrEqual(count), { timeout: 60_000, interval: 20 });
}

/** The most v2 calls the proof budget lets unproven secrets of one key cause in `seconds` (docs/decisions.md). */
const proofBound = (seconds: number) => PROOF_LIMITS.perKey.burst + Math.ceil(PROOF_LIMITS.perKey.ratePerSecond * seconds);

function resetCounts(): void {
  seen.refused = 0;
  seen.accepted = 0;
}

describe('a flood of wrong secrets for a key', { timeout: FLOOD_TEST_MS }, () => {
  it('never refuses the owner just after a restart (10 restarts of 10), nor causes more v2 calls than the bound', async () => {
    const answers: unknown[] = [];
    const replies: Reply[] = [];
    let bound = 0;
    resetCounts();
    for (let round = 0; round < 10; round++) {
      await restart(); // the owner's pair is unproven again
      const flood = attack('/v1/user/checkemail', EMAIL);
      await underWay(flood, 0.3); // the flood is under way before the owner's call
      answers.push((await post('/v1/user/checkemail', { ...owner, ...EMAIL })).body);
      const { seconds, replies: these } = await flood.stop();
      replies.push(...these);
      bound += proofBound(seconds);
    }

    expect(answers).toEqual(Array(10).fill({ existed_email: true }));
    expect(replies.length).toBeGreaterThanOrEqual(10 * ATTACK_PER_SECOND * 0.3); // ten floods of a third of a second at least
    for (const reply of replies) {
      expect([102, 403]).toContain(reply.body.error?.code);
      expect(reply.v2Calls).toBeLessThanOrEqual(1);
    }
    expect(seen.refused).toBeLessThanOrEqual(replies.length);
    expect(seen.refused).toBeLessThanOrEqual(bound);
    // The owner's ten calls, one v2 call each (each was its pair's proof).
    expect(seen.accepted).toBe(10);
  });

  it("takes none of a proven owner's tokens: its calls find their v2 tokens waiting", async () => {
    const running = await restart();
    expect((await post('/v1/user/checkemail', { ...owner, ...EMAIL })).body).toEqual({ existed_email: true });
    const flood = attack('/v1/user/checkemail', EMAIL);
    await underWay(flood, 0.5);
    const answers: unknown[] = [];
    // Six calls at once, once a second (distinct, so that none is coalesced with another): within
    // the key's v1 and v2 limits, so none waits for a token unless someone else took them.
    for (let round = 0; round < 4; round++) {
      const calls = Array.from({ length: 6 }, (_, i) =>
        post('/v1/user/checkemail', { ...owner, email: `nobody-${round}-${i}@example.com` }),
      );
      answers.push(...(await Promise.all(calls)).map((reply) => reply.body));
      await sleep(1000);
    }
    const { replies } = await flood.stop();

    expect(answers).toEqual(Array(24).fill({ existed_email: false }));
    expect(replies.every((reply) => [102, 403].includes(reply.body.error?.code))).toBe(true);
    const outbound = running.limiters.outbound.stats();
    expect(outbound.waits.reduce((sum, w) => sum + w.waits, 0)).toBe(0);
    expect(outbound.refusals).toEqual([]);
  });
});

describe('a flood of wrong secrets at the SDK signer', { timeout: FLOOD_TEST_MS }, () => {
  it('signs for the owner every time, just after a restart, with one v2 call in all, and the bound holds', async () => {
    const fields = { meeting_number: '123456789', role: '0' };
    await restart();
    resetCounts();
    const flood = attack('/sdk/signature', fields);
    await underWay(flood, 0.5);
    const answers: unknown[] = [];
    for (let i = 0; i < 10; i++) {
      answers.push((await post('/sdk/signature', { ...owner, ...fields })).body);
      await sleep(150);
    }
    await underWay(flood, 2); // two seconds' worth of requests in all
    const { seconds, replies } = await flood.stop();

    expect(answers).toEqual(Array(10).fill({ signature: expect.any(String) }));
    expect(replies.length).toBeGreaterThanOrEqual(ATTACK_PER_SECOND * 2);
    for (const reply of replies) expect([102, 403]).toContain(reply.body.error?.code);
    expect(seen.refused).toBeLessThanOrEqual(proofBound(seconds));
    // The owner's pair was proven once; the nine signatures after it asked v2 nothing.
    expect(seen.accepted).toBe(1);
  });
});
