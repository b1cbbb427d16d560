import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET_CHECK_LIMITS } from '../../src/ratelimit/proof-budget.js';
import type { CredentialEntry } from '../../src/upstream/auth/credential-map.js';
import { hashSecret } from '../../src/upstream/auth/secret-hash.js';
import { rememberSecret } from '../support/gateway.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';
import { startRedis, type RunningRedis } from '../support/redis.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';

/**
 * A key in the credential map (its secret checked here, against a scrypt hash) is flooded with
 * wrong secrets from 64 connections just after a restart, while its owner calls. The secret-check
 * budget (SECRET_CHECK_LIMITS) is spent by the flood within its first second; the owner, whose
 * pair was matched before the restart, must never need it: its pair is remembered beside the
 * credentials file, or in Redis for every instance. Real gateway processes, a real v2 sandbox, and
 * a real redis-server; every assertion is on counts and orderings.
 */

const KEY = 'mapped-owner-key';
const SECRET = `mapped-owner-secret-${randomBytes(16).toString('hex')}`;
const CONNECTIONS = 64;
/** The owner's calls during the flood, as many as the attack that found the lockout saw refused. */
const OWNER_CALLS = 41;
const EMAIL = 'owner@sandbox.v1gate.local';
rememberSecret(SECRET);

let sandbox: RunningSandbox;
let redis: RunningRedis;
const running: GatewayProcess[] = [];

/** A folder of its own, as each host has. */
const folder = () => mkdtempSync(join(tmpdir(), 'v1gate-mapped-'));

/** A credentials file mapping KEY to the sandbox's OAuth app. */
async function credentialsFile(): Promise<string> {
  const { oauthApp } = sandbox.sandbox;
  const entry: CredentialEntry = {
    api_key: KEY,
    secret_hash: await hashSecret(SECRET),
    previous_secrets: [],
    v2: { kind: 'oauth', account_id: oauthApp.accountId, client_id: oauthApp.clientId, client_secret: oauthApp.clientSecret },
  };
  const file = join(folder(), 'credentials.json');
  writeFileSync(file, JSON.stringify([entry]), { mode: 0o600 });
  return file;
}

async function start(env: Record<string, string>): Promise<GatewayProcess> {
  const gateway = await startGatewayProcess({
    V2_BASE_URL: `${sandbox.url}/v2`,
    V1_RATE_LIMITS: 'on',
    V2_RATE_LIMITS: 'on',
    LOG_LEVEL: 'silent',
    ...env,
  });
  running.push(gateway);
  return gateway;
}

beforeAll(async () => {
  sandbox = await startSandbox();
  rememberSecret(sandbox.sandbox.oauthApp.clientSecret);
  redis = await startRedis();
}, 60_000);

afterAll(async () => {
  await Promise.all(running.map((gateway) => gateway.stop()));
  await redis?.close();
  await sandbox?.close();
});

async function call(gateway: GatewayProcess, secret: string): Promise<{ code: number | undefined; at: number }> {
  const response = await fetch(`${gateway.url}/v1/user/checkemail`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ api_key: KEY, api_secret: secret, email: EMAIL }),
  });
  const body = (await response.json()) as { error?: { code: number }; existed_email?: boolean };
  if (body.error === undefined) expect(body).toEqual({ existed_email: true });
  return { code: body.error?.code, at: performance.now() };
}

/** CONNECTIONS clients, each sending a fresh wrong secret as soon as its last one is answered, until stopped. */
function flood(gateway: GatewayProcess) {
  let stopped = false;
  const answers: { code: number | undefined; at: number }[] = [];
  const clients = Array.from({ length: CONNECTIONS }, async () => {
    while (!stopped) answers.push(await call(gateway, randomBytes(18).toString('base64url')));
  });
  return {
    answers,
    async stop() {
      stopped = true;
      await Promise.all(clients);
      return answers;
    },
  };
}

/** How the gateway's new pairs were checked (v1gate_credential_checks_total): remembered, hashed, over_budget. */
async function checks(gateway: GatewayProcess): Promise<Record<string, number>> {
  const text = await (await fetch(`${gateway.url}/metrics`)).text();
  const counts: Record<string, number> = {};
  for (const match of text.matchAll(/^v1gate_credential_checks_total\{how="(\w+)"\} (\d+)$/gm)) counts[match[1]!] = Number(match[2]);
  return counts;
}

/**
 * The bound the flood is held to: the pairs hashed in `seconds` are at most the secret-check
 * budget's burst and rate for one key (docs/decisions.md), the owner's none of them.
 */
const hashBound = (seconds: number) => SECRET_CHECK_LIMITS.perKey.burst + Math.ceil(SECRET_CHECK_LIMITS.perKey.ratePerSecond * seconds);

/** Waits until the flood has had `count` answers. */
async function answered(attack: ReturnType<typeof flood>, count: number): Promise<void> {
  while (attack.answers.length < count) await sleep(20);
}

/**
 * Floods `gateway` until the secret-check budget is certainly spent (more answers than its burst
 * and a second of its rate), then makes the owner's calls one after another; stops the flood once
 * they are answered. Returns the owner's answers and the flood's.
 */
async function ownerUnderFlood(gateway: GatewayProcess) {
  const started = performance.now();
  const attack = flood(gateway);
  await answered(attack, 4 * (SECRET_CHECK_LIMITS.perKey.burst + SECRET_CHECK_LIMITS.total.burst));
  const owner: { code: number | undefined; at: number }[] = [];
  for (let i = 0; i < OWNER_CALLS; i++) {
    owner.push(await call(gateway, SECRET));
    await sleep(50);
  }
  const answers = await attack.stop();
  const counted = await checks(gateway);
  // Up to the read of the counters: a check still in flight at the stop spends budget refilled until then.
  const seconds = (performance.now() - started) / 1000;
  const refused = answers.filter((a) => a.code === 403).length;
  console.log(
    `${answers.length} wrong secrets from ${CONNECTIONS} connections in ${seconds.toFixed(1)} s (${refused} of them refused as over the budget); ` +
      `the owner's ${OWNER_CALLS} calls: ${owner.filter((a) => a.code !== undefined).length} refused`,
  );
  return { owner, answers, seconds, checks: counted };
}

const refused = (answers: { code: number | undefined }[]) => answers.filter((a) => a.code === 403).length;

/** The flood's answers: wrong secrets (102) and spent budget (403), and the 403s that came while the owner was calling. */
function tally(answers: { code: number | undefined; at: number }[], owner: { at: number }[]) {
  const [first, last] = [owner[0]!.at, owner.at(-1)!.at];
  return {
    codes: new Set(answers.map((a) => a.code)),
    refusedDuringOwner: answers.filter((a) => a.code === 403 && a.at >= first && a.at <= last).length,
  };
}

describe("a wrong-secret flood at a mapped key, just after a restart, leaves the owner's calls alone", { timeout: 240_000 }, () => {
  it('one process: the pair matched before the restart is remembered beside the credentials file', async () => {
    const env = { V2_CREDENTIALS_FILE: await credentialsFile() };
    const before = await start(env);
    expect((await call(before, SECRET)).code).toBeUndefined();
    await before.stop();

    const restarted = await start(env);
    const { owner, answers, seconds, checks } = await ownerUnderFlood(restarted);

    // The bound: none of the owner's calls is refused, while the flood is refused as rate-limited throughout.
    expect(owner.map((a) => a.code)).toEqual(Array(OWNER_CALLS).fill(undefined));
    const { codes, refusedDuringOwner } = tally(answers, owner);
    expect([...codes].sort()).toEqual([102, 403]);
    expect(refusedDuringOwner).toBeGreaterThan(0);
    // The owner's pair was found among those proven before the restart, once, and never hashed:
    // every hash the budget allowed went to the flood, within its bound.
    expect(checks).toEqual({ remembered: 1, hashed: answers.length - refused(answers), over_budget: refused(answers) });
    expect(checks.hashed).toBeLessThanOrEqual(hashBound(seconds));
  });

  it('two instances sharing Redis: a pair matched by one is the owner at the other, which never saw it', async () => {
    const shared = { REDIS_URL: redis.url };
    const file = await credentialsFile();
    const first = await start({ ...shared, V2_CREDENTIALS_FILE: file });
    expect((await call(first, SECRET)).code).toBeUndefined();
    // Its own copy of the file (as deployed to another host), in a folder of its own: nothing beside it remembers the pair.
    const copy = join(folder(), 'credentials.json');
    copyFileSync(file, copy);
    const second = await start({ ...shared, V2_CREDENTIALS_FILE: copy });

    const { owner, answers, seconds, checks } = await ownerUnderFlood(second);

    expect(owner.map((a) => a.code)).toEqual(Array(OWNER_CALLS).fill(undefined));
    const { codes, refusedDuringOwner } = tally(answers, owner);
    expect([...codes].sort()).toEqual([102, 403]);
    expect(refusedDuringOwner).toBeGreaterThan(0);
    expect(checks).toEqual({ remembered: 1, hashed: answers.length - refused(answers), over_budget: refused(answers) });
    expect(checks.hashed).toBeLessThanOrEqual(hashBound(seconds));
  });
});
