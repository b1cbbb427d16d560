import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { rememberSecret, testLogEnv } from '../support/gateway.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';

/**
 * The embedded sandbox keeps who it is across restarts when its credentials are fixed: a
 * credential map written once (with `npm run credentials -- add`, as docs/credentials.md shows) names an
 * account that is still there after every restart. With SANDBOX_DATA_FILE it keeps its data too.
 * Real gateway processes, stopped by SIGTERM as a supervisor stops them.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SANDBOX = {
  SANDBOX_API_KEY: 'identity-test-key',
  SANDBOX_API_SECRET: 'identity-test-secret-0123456789',
  SANDBOX_OAUTH_CLIENT_ID: 'identity-test-client',
  SANDBOX_OAUTH_CLIENT_SECRET: 'identity-test-client-secret-0123456789',
};
const LEGACY = { api_key: 'identity-legacy-key', api_secret: 'identity-legacy-secret-never-rotated' };
for (const secret of [SANDBOX.SANDBOX_API_SECRET, SANDBOX.SANDBOX_OAUTH_CLIENT_SECRET, LEGACY.api_secret]) rememberSecret(secret);
const QUIET = { ...testLogEnv(), V1_RATE_LIMITS: 'off', V2_RATE_LIMITS: 'off' };

let running: GatewayProcess | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

async function startAndStop<T>(env: Record<string, string>, use: (gateway: GatewayProcess) => Promise<T>): Promise<T> {
  running = await startGatewayProcess({ ...QUIET, ...env });
  try {
    return await use(running);
  } finally {
    await running.stop();
    running = undefined;
  }
}

/** The account id the banner shows (its lines follow the listening line the start waits for). */
async function accountIn(gateway: GatewayProcess): Promise<string> {
  for (let waited = 0; waited < 10_000; waited += 50) {
    const match = /sandbox OAuth app: +account (\S+),/.exec(gateway.output());
    if (match && gateway.output().includes('try: curl')) return match[1]!;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no account in the banner:\n${gateway.output()}`);
}

async function v1(url: string, path: string, params: Record<string, string>): Promise<Record<string, unknown>> {
  const answer = await fetch(`${url}/v1${path}`, { method: 'POST', body: new URLSearchParams({ ...LEGACY, ...params }) });
  return (await answer.json()) as Record<string, unknown>;
}

/** `npm run credentials -- add`, the secrets given on standard input as docs/credentials.md shows. */
function addToMap(file: string, accountId: string): Promise<{ code: number | null; output: string }> {
  const args = ['--import', 'tsx', 'scripts/credentials.ts', 'add', '--file', file, '--api-key', LEGACY.api_key, '--secret', '-'];
  args.push('--account-id', accountId, '--client-id', SANDBOX.SANDBOX_OAUTH_CLIENT_ID, '--client-secret', '-');
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stdin.end(`${LEGACY.api_secret}\n${SANDBOX.SANDBOX_OAUTH_CLIENT_SECRET}\n`);
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

describe('the embedded sandbox across restarts', () => {
  it('keeps its account and owner ids, so a credential map made once keeps working', { timeout: 120_000 }, async () => {
    const folder = mkdtempSync(join(tmpdir(), 'v1gate-identity-'));
    const map = join(folder, 'credentials.json');
    const first = await startAndStop(SANDBOX, async (gateway) => ({
      account: await accountIn(gateway),
      owner: await v1(gateway.url, '/user/getbyemail', { ...sandboxPair(), email: 'owner@sandbox.v1gate.local' }),
    }));
    expect(await addToMap(map, first.account)).toMatchObject({ code: 0 });

    const mapped = { ...SANDBOX, V2_CREDENTIALS_FILE: map, V2_CREDENTIALS_ONLY: '1' };
    for (const restart of [1, 2]) {
      const seen = await startAndStop(mapped, async (gateway) => ({
        account: await accountIn(gateway),
        owner: await v1(gateway.url, '/user/getbyemail', { email: 'owner@sandbox.v1gate.local' }),
      }));
      expect(seen.account, `restart ${restart}`).toBe(first.account);
      // The legacy key reaches v2 through the mapped OAuth app: the same owner, by the same id.
      expect(seen.owner, `restart ${restart}`).toMatchObject({ id: first.owner.id, email: 'owner@sandbox.v1gate.local' });
    }
  });

  it('starts a new account at each start when nothing is fixed (the banner says so)', { timeout: 60_000 }, async () => {
    const accounts: string[] = [];
    for (const _ of [1, 2]) {
      await startAndStop({}, async (gateway) => {
        accounts.push(await accountIn(gateway));
        expect(gateway.output()).toContain('new credentials and ids at every start');
      });
    }
    expect(accounts[0]).not.toBe(accounts[1]);
  });

  it('keeps its data with SANDBOX_DATA_FILE, and refuses another account’s file in one line', { timeout: 120_000 }, async () => {
    const data = join(mkdtempSync(join(tmpdir(), 'v1gate-data-')), 'state', 'sandbox.json');
    const env = { ...SANDBOX, SANDBOX_DATA_FILE: data };
    const email = 'kept-across-restarts@example.com';
    let sdkApp: unknown;
    await startAndStop(env, async (gateway) => {
      const made = await v1(gateway.url, '/user/custcreate', { ...sandboxPair(), email, type: '1' });
      expect(made).toMatchObject({ email });
      sdkApp = await sdkAppOf(gateway.url);
      expect(sdkApp).toMatchObject({ sdk_key: expect.any(String), sdk_secret: expect.any(String) });
    });
    expect(existsSync(data)).toBe(true);
    const again = await startAndStop(env, async (gateway) => ({
      user: await v1(gateway.url, '/user/getbyemail', { ...sandboxPair(), email }),
      // The Meeting SDK app a credential map names (`npm run credentials -- sdk`) is the same one after the restart.
      sdkApp: await sdkAppOf(gateway.url),
    }));
    expect(again.user).toMatchObject({ email, type: 1 });
    expect(again.sdkApp).toEqual(sdkApp);

    const other = await startGatewayProcess({ ...QUIET, ...env, SANDBOX_API_SECRET: 'another-secret-another-account' }).then(
      (gateway) => ((running = gateway), 'started'),
      (error: Error) => error.message,
    );
    expect(other).toMatch(/v1gate: cannot start: SANDBOX_DATA_FILE: .* holds another sandbox account's data/);
    expect(other).not.toMatch(/^\s+at /m);
  });
});

describe('a sandbox restarted over its data file', () => {
  it('keeps one OAuth app of its own however often it restarts, and logs that it loaded the file', { timeout: 120_000 }, async () => {
    const data = join(mkdtempSync(join(tmpdir(), 'v1gate-data-')), 'sandbox.json');
    // No fixed client id: each start makes its app with a new one, as an operator who fixed only the key and secret gets.
    const env = {
      ...QUIET,
      LOG_FILE: '',
      LOG_LEVEL: 'info',
      SANDBOX_API_KEY: SANDBOX.SANDBOX_API_KEY,
      SANDBOX_API_SECRET: SANDBOX.SANDBOX_API_SECRET,
      SANDBOX_DATA_FILE: data,
    };
    const appsAt: number[] = [];
    for (let start = 0; start < 3; start++) {
      await startAndStop(env, async (gateway) => {
        const listed = (await (await fetch(`${gateway.url}/sandbox/accounts`)).json()) as {
          accounts: { api_key: string; oauth_apps: unknown[] }[];
        };
        appsAt.push(listed.accounts.find((a) => a.api_key === SANDBOX.SANDBOX_API_KEY)!.oauth_apps.length);
        const loadedLine = /"msg":"sandbox: data loaded from SANDBOX_DATA_FILE"/;
        const firstLine = /"msg":"sandbox: no data file yet; SANDBOX_DATA_FILE will keep this data"/;
        for (let waited = 0; waited < 5_000 && !(start === 0 ? firstLine : loadedLine).test(gateway.output()); waited += 50)
          await new Promise((resolve) => setTimeout(resolve, 50));
        expect(gateway.output()).toMatch(start === 0 ? firstLine : loadedLine);
      });
    }
    expect(appsAt).toEqual([1, 1, 1]);
  });
});

/** The master account's Meeting SDK app, from the sandbox's control API (made the first time). */
async function sdkAppOf(url: string): Promise<unknown> {
  const answer = await fetch(`${url}/sandbox/sdk/apps`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  expect(answer.status).toBe(200);
  return answer.json();
}

function sandboxPair(): Record<string, string> {
  return { api_key: SANDBOX.SANDBOX_API_KEY, api_secret: SANDBOX.SANDBOX_API_SECRET };
}
