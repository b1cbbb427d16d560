import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_LIMITS, scaledCount } from '../../src/v2-contract/rate-limit-plans.js';
import { V2 } from '../../src/v2-contract/v2-routes.js';
import type { CredentialEntry } from '../../src/upstream/auth/credential-map.js';
import { hashSecret } from '../../src/upstream/auth/secret-hash.js';
import { emptyCredentialFile, rememberSecret, startTestGateway, type TestGateway } from '../support/gateway.js';

/**
 * Today's v2 counts calls per account, every app and key of it together, by each endpoint's
 * category and the account's plan. Through a real gateway with its v2 limits on, over its sandbox
 * enforcing those limits itself (both scaled to half, so a Pro account's Light budget is 15 a
 * second, Medium 10): two legacy keys mapped to one account share its budget, and neither draws a v2 429 at
 * the plan's rate; a key of another account is not held back by their queue; and an answer's
 * X-RateLimit-Remaining, lowered by another app of the account, lowers v1gate's bucket too.
 *
 * v2 is asked once per call (no retry of a 429), so a v2 429 would show in the gateway's count of
 * v2 answers.
 */

const SCALE = 0.5;
/**
 * v1 /user/get reads GET /users/{userId} (Light) and GET /users/{userId}/settings (Medium) at once;
 * of a user v2 does not have, both are answered 404. Medium's is the smaller budget.
 */
const CATEGORY = V2.users.settings.category;
const PER_SECOND = scaledCount(PLAN_LIMITS.pro.categories[CATEGORY].count, SCALE);
const FIRST = { api_key: 'first-app-of-the-account', api_secret: 'first-app-legacy-secret-0001' };
const SECOND = { api_key: 'second-app-of-the-account', api_secret: 'second-app-legacy-secret-0002' };
const OTHER = { api_key: 'app-of-another-account', api_secret: 'another-account-legacy-secret-3' };

let gw: TestGateway;
let otherOwnerEmail: string;

async function entry(v1: typeof FIRST, v2: CredentialEntry['v2']): Promise<CredentialEntry> {
  return { api_key: v1.api_key, secret_hash: await hashSecret(v1.api_secret), previous_secrets: [], v2 };
}

/** The gateway's count of v2 answers of a status, of every route or of one. */
async function v2Answers(status: number, route?: string): Promise<number> {
  const text = await (await fetch(`${gw.url}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('v1gate_v2_calls_total{') && line.includes(`status="${status}"`))
    .filter((line) => route === undefined || line.includes(`route="${route}"`))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

/** Until the account's calls have all been sent, and its buckets refilled. */
async function settled(): Promise<void> {
  const account = `account:${gw.sandbox.oauthApp.accountId}`;
  while (gw.limiters.outbound.waiting(account, 'light') + gw.limiters.outbound.waiting(account, 'medium') > 0) await sleep(20);
  await sleep(1_100);
}

/** Each of `keys` calls /user/get `perKey` times, one every 1/`perSecond` s; the answers, and how long it all took. */
async function paced(keys: (typeof FIRST)[], perKey: number, perSecond: number) {
  const started = performance.now();
  const answers = await Promise.all(
    keys.flatMap((key) =>
      Array.from({ length: perKey }, async (_, i) => {
        await sleep((i * 1000) / perSecond);
        return userGet(key);
      }),
    ),
  );
  return { answers, elapsedMs: performance.now() - started };
}

let calls = 0;
/** A v1 /user/get of a user no one has, a new one each time: v2 answers each, so no read joins another in flight. */
const userGet = (key: typeof FIRST) => gw.v1Raw('/user/get', { ...key, id: `nobody-${++calls}` });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  const file = emptyCredentialFile();
  gw = await startTestGateway(
    { V2_CREDENTIALS_FILE: file, V2_RATE_LIMITS: 'on', RATE_LIMIT_SCALE: String(SCALE), UPSTREAM_MAX_ATTEMPTS: '1' },
    { sandboxLimits: { scale: SCALE } },
  );
  for (const key of [FIRST, SECOND, OTHER]) rememberSecret(key.api_secret);
  otherOwnerEmail = `other-owner-${Date.now()}@example.com`;
  const created = await gw.v2('POST', '/accounts', {
    body: { first_name: 'Other', last_name: 'Owner', email: otherOwnerEmail, password: 'Passw0rd!' },
  });
  expect(created.status).toBe(201);
  const app = await gw.control('POST', `/accounts/${created.body.id}/oauth-apps`, { name: 'v1gate' });
  rememberSecret(app.body.client_secret);
  const own = gw.sandbox.oauthApp;
  const ownApp: CredentialEntry['v2'] = {
    kind: 'oauth',
    account_id: own.accountId,
    client_id: own.clientId,
    client_secret: own.clientSecret,
  };
  writeFileSync(
    file,
    JSON.stringify([
      await entry(FIRST, ownApp),
      await entry(SECOND, ownApp),
      await entry(OTHER, {
        kind: 'oauth',
        account_id: created.body.id,
        client_id: app.body.client_id,
        client_secret: app.body.client_secret,
      }),
    ]),
  );
  expect(gw.reloadCredentials()).toMatchObject({ ok: true });
  // The sandbox's buckets refill in a second: start from full ones.
  await sleep(1_100);
});
afterAll(() => gw.close());

describe('outbound budgets per v2 account and category', () => {
  it("two keys of one account at the plan's rate together: every call goes through, and none draws a v2 429", async () => {
    const before = await v2Answers(429);
    // Each key at half the account's rate (a little under, for the margin), for two seconds.
    const { answers } = await paced([FIRST, SECOND], PER_SECOND, (PER_SECOND / 2) * 0.95);
    for (const answer of answers) expect(answer.body.error, JSON.stringify(answer.body)).toMatchObject({ code: 1001 });
    expect(await v2Answers(429)).toBe(before);
    await settled();
  });

  it("two keys of one account, each at the plan's rate, share the account's budget: v1gate holds back what it cannot send, v2 refuses nothing", async () => {
    const settings = V2.users.settings.template;
    const before = { refused: await v2Answers(429), settings: await v2Answers(404, settings) };
    const { answers } = await paced([FIRST, SECOND], PER_SECOND, PER_SECOND);
    expect(await v2Answers(429)).toBe(before.refused);
    // Twice the account's rate: a call whose settings read waited for the account's Medium budget
    // was answered by its user read's 404 (the waiting read then withdrawn, never sent) or, past its
    // wait, refused by v1gate itself with v1's rate-limit error. Either way fewer settings reads
    // reached v2 than calls were made: with a budget per key, each at its rate, all would have.
    const codes = answers.map((answer) => answer.body.error.code as number);
    expect(codes.every((code) => code === 1001 || code === 403)).toBe(true);
    expect((await v2Answers(404, settings)) - before.settings).toBeLessThan(answers.length);
    await settled();
  });

  it("a key of another account is not held back by the first account's queue", async () => {
    // A second of the account's budget at once: its burst goes, the rest queue.
    const flood = Array.from({ length: PER_SECOND + 5 }, (_, i) => userGet(i % 2 ? FIRST : SECOND));
    const account = `account:${gw.sandbox.oauthApp.accountId}`;
    while (gw.limiters.outbound.waiting(account, CATEGORY) === 0) await sleep(5);
    const other = await Promise.all(Array.from({ length: 5 }, () => gw.v1Raw('/user/getbyemail', { ...OTHER, email: otherOwnerEmail })));
    for (const answer of other) expect(answer.body.error, JSON.stringify(answer.body)).toBeUndefined();
    // All five came back while the first account's calls were still queued for its tokens.
    expect(gw.limiters.outbound.waiting(account, CATEGORY)).toBeGreaterThan(0);
    // Theirs are answered, or refused by v1gate for their own account's queue: never by v2.
    for (const answer of await Promise.all(flood)) expect([1001, 403]).toContain(answer.body.error.code);
    await settled();
  });

  it("another app of the account spending its budget straight at v2 lowers v1gate's bucket through X-RateLimit-Remaining", async () => {
    const before = await v2Answers(429);
    const corrections = gw.limiters.outbound.corrections;
    // Another app of the same account, not through v1gate: all but one of the category's budget.
    const direct = await Promise.all(Array.from({ length: PER_SECOND - 1 }, () => gw.v2('GET', '/users/me/settings')));
    expect(direct.filter((answer) => answer.status === 200).length).toBeGreaterThan(0);
    // v1gate's bucket is still full; v2's answer says nothing is left.
    expect((await userGet(FIRST)).body.error.code).toBe(1001);
    expect(gw.limiters.outbound.corrections).toBeGreaterThan(corrections);
    // A burst now waits for tokens v2 has, rather than spending the ones v1gate believed it had.
    const burst = await Promise.all(Array.from({ length: 6 }, () => userGet(SECOND)));
    for (const answer of burst) expect([1001, 403]).toContain(answer.body.error.code);
    expect(await v2Answers(429)).toBe(before);
  });
});
