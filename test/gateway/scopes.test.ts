import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningGateway } from '../../src/gateway.js';
import { keyHash } from '../../src/ops/key-hash.js';
import type { StatusSection } from '../../src/ops/status-sections.js';
import type { CredentialEntry } from '../../src/upstream/auth/credential-map.js';
import { hashSecret } from '../../src/upstream/auth/secret-hash.js';
import { startFaultUpstream, startGatewayOver, type FaultUpstream } from '../support/fault-upstream.js';
import { expectErrorText } from '../support/error-text.js';
import { emptyCredentialFile, rememberSecret, testLogEnv } from '../support/gateway.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';
import { postV1 } from '../support/v1-form.js';

/**
 * Granular scopes end to end: a legacy key mapped to a v2 app made with only the scopes
 * `meeting:read:meeting:admin` and `user:read:user:admin`, through a real gateway over a real
 * sandbox (which answers 4711 for what a token's scopes do not open), with a proxy between them
 * that sees every v2 call. v1gate reads the app's scopes from its token answer: what they open is
 * served, what they do not is refused before any v2 call with v1's no-privilege error naming the
 * scopes to add, and `credentials check --scopes` lists the endpoints the app cannot serve.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const READ_ONLY_SCOPES = ['meeting:read:meeting:admin', 'user:read:user:admin'];
const SCOPED = { api_key: 'legacy-key-of-a-read-only-app', api_secret: 'legacy-secret-of-a-read-only-app' };

let sandbox: RunningSandbox;
let v2: FaultUpstream;
let gateway: RunningGateway;
let file: string;
let hostId: string;
let meetingId: number;

/** A new app of the master account made with `scopes`, as the control API makes it. */
async function appWith(scopes: string[]): Promise<CredentialEntry['v2']> {
  const made = await sandbox.control('POST', `/accounts/${sandbox.sandbox.master.id}/oauth-apps`, { name: 'v1gate scoped', scopes });
  expect(made.status).toBe(201);
  expect(made.body.scopes).toEqual(scopes);
  rememberSecret(made.body.client_secret);
  return { kind: 'oauth', account_id: made.body.account_id, client_id: made.body.client_id, client_secret: made.body.client_secret };
}

const v1 = async (path: string, params: Record<string, string>) => {
  const answer = await postV1(gateway.url, path, { ...SCOPED, ...params });
  return { body: (await answer.json()) as any, v2Calls: answer.headers.get('x-v2-calls') };
};

/** The v2 calls the proxy saw that could change something. */
const writesSeen = () => v2.seen.filter((call) => call.method !== 'GET');

beforeAll(async () => {
  sandbox = await startSandbox();
  v2 = await startFaultUpstream(`${sandbox.url}/v2`);
  file = emptyCredentialFile();
  rememberSecret(SCOPED.api_secret);
  const entry: CredentialEntry = {
    api_key: SCOPED.api_key,
    secret_hash: await hashSecret(SCOPED.api_secret),
    previous_secrets: [],
    v2: await appWith(READ_ONLY_SCOPES),
  };
  writeFileSync(file, JSON.stringify([entry]), { mode: 0o600 });
  gateway = await startGatewayOver(v2.url, { V2_CREDENTIALS_FILE: file, ...testLogEnv() });
  hostId = (await sandbox.v2('GET', '/users/me')).body.id;
  const made = await sandbox.v2('POST', `/users/${hostId}/meetings`, { body: { topic: 'Read through a scoped app', type: 2 } });
  expect(made.status).toBe(201);
  meetingId = made.body.id;
});
afterEach(() => {
  v2.rules.length = 0;
  v2.seen.length = 0;
});
afterAll(async () => {
  await gateway.close();
  await v2.close();
  await sandbox.close();
});

describe('a key mapped to an app made with only meeting:read:meeting:admin and user:read:user:admin', () => {
  it('reads a meeting through v1 meeting/get, without the host list its scopes do not open', async () => {
    const answer = await v1('/meeting/get', { id: String(meetingId), host_id: hostId });
    expect(answer.body).toMatchObject({ id: meetingId, host_id: hostId, topic: 'Read through a scoped app', status: 0 });
    // The meeting and its host: GET /users/{id}/meetings (meeting:read:list_meetings:admin) is not asked.
    expect(v2.seen.map((call) => `${call.method} ${call.path}`).sort()).toEqual([`GET /meetings/${meetingId}`, `GET /users/${hostId}`]);
  });

  it('is refused v1 meeting/create with the no-privilege error naming meeting:write:meeting:admin, and no v2 call is made', async () => {
    const before = (await sandbox.v2('GET', `/users/${hostId}/meetings`, { query: { type: 'scheduled', page_size: 300 } })).body
      .total_records;
    const answer = await v1('/meeting/create', { host_id: hostId, type: '2', topic: 'Never made' });
    expect(answer.body).toEqual({
      error: {
        code: 200,
        message:
          'No privilege: the v2 app of this api_key does not have the scopes [meeting:write:meeting:admin] this call needs (docs/scopes.md). Nothing was changed.',
      },
    });
    expectErrorText(answer.body.error, 'scopes-missing', ['meeting:write:meeting:admin', 'Nothing was changed.']);
    expect(answer.v2Calls).toBe('0');
    expect(writesSeen()).toEqual([]);
    expect(v2.seen).toEqual([]);
    const after = (await sandbox.v2('GET', `/users/${hostId}/meetings`, { query: { type: 'scheduled', page_size: 300 } })).body;
    expect(after.total_records).toBe(before);
    expect(after.meetings.map((m: { topic: string }) => m.topic)).not.toContain('Never made');
  });

  it('is refused every write the same way, before v2 sees it: meeting delete and update, user create', async () => {
    for (const [path, params, scope] of [
      ['/meeting/delete', { id: String(meetingId), host_id: hostId }, 'meeting:delete:meeting:admin'],
      ['/meeting/update', { id: String(meetingId), host_id: hostId, topic: 'Changed' }, 'meeting:update:meeting:admin'],
      ['/user/create', { email: 'never@example.com', type: '1' }, 'user:write:user:admin'],
    ] as const) {
      const answer = await v1(path, params);
      expect(answer.body.error?.code, path).toBe(200);
      expect(answer.body.error?.message, path).toContain(scope);
      expect(answer.body.error?.message, path).toMatch(/Nothing was changed\.$/);
    }
    expect(v2.seen).toEqual([]);
    expect((await sandbox.v2('GET', `/meetings/${meetingId}`)).body.topic).toBe('Read through a scoped app');
  });

  it('answers a 4711 from v2, on a route its scopes should open, with the same v1 error, naming the scopes v2 named', async () => {
    v2.rules.push({
      method: 'GET',
      path: /^\/meetings\/\d+$/,
      times: 1,
      fault: {
        kind: 'answer',
        status: 400,
        body: JSON.stringify({ code: 4711, message: 'Invalid access token, does not contain scopes:[meeting:read:meeting:admin].' }),
      },
    });
    const answer = await v1('/meeting/get', { id: String(meetingId), host_id: hostId });
    expect(answer.body).toEqual({
      error: {
        code: 200,
        message:
          'No privilege: the v2 app of this api_key does not have the scopes [meeting:read:meeting:admin] this call needs (docs/scopes.md). Calls of it made before this one may have been applied.',
      },
    });
    expect(v2.seen.some((call) => call.fault === 'answer')).toBe(true);
  });
});

describe('a key mapped to an app whose token lists no scope v1gate knows', () => {
  it("is not judged before the call, and the sandbox's own 4711 reaches the v1 client as the same error", async () => {
    const unknown = { api_key: 'legacy-key-of-an-unknown-scoped-app', api_secret: 'legacy-secret-of-an-unknown-scoped-app' };
    rememberSecret(unknown.api_secret);
    const entries: CredentialEntry[] = [
      {
        api_key: SCOPED.api_key,
        secret_hash: await hashSecret(SCOPED.api_secret),
        previous_secrets: [],
        v2: await appWith(READ_ONLY_SCOPES),
      },
      {
        api_key: unknown.api_key,
        secret_hash: await hashSecret(unknown.api_secret),
        previous_secrets: [],
        v2: await appWith(['phone:read:admin']),
      },
    ];
    writeFileSync(file, JSON.stringify(entries), { mode: 0o600 });
    expect(gateway.reloadCredentials()).toMatchObject({ ok: true });
    const answer = await postV1(gateway.url, '/meeting/create', { ...unknown, host_id: hostId, type: '2', topic: 'Never made either' });
    expect(await answer.json()).toEqual({
      error: {
        code: 200,
        message:
          'No privilege: the v2 app of this api_key does not have the scopes [meeting:write:meeting, meeting:write:meeting:admin] this call needs (docs/scopes.md). Calls of it made before this one may have been applied.',
      },
    });
    // Without a judgement the write was sent, and v2 refused it: what the check before the call spares.
    expect(writesSeen().map((call) => `${call.method} ${call.path}`)).toEqual([`POST /users/${hostId}/meetings`]);
  });
});

/** A command as an operator runs it, to its exit. */
function run(command: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

describe('check and the status page, for a mapped app that lacks scopes', () => {
  it('check warns, naming the key and the v1 endpoints its app cannot serve', async () => {
    const checked = await run(process.execPath, ['dist/src/main.js', 'check'], {
      PORT: '0',
      V2_BASE_URL: v2.url,
      V2_CREDENTIALS_FILE: file,
      READY_TIMEOUT_MS: '5000',
    });
    expect(checked.stdout).toContain('v1gate check: the configuration is good.');
    const warning = checked.stdout.split('\n').find((line) => line.includes(`the app of ${SCOPED.api_key}`));
    expect(warning).toMatch(
      /^warning: V2_CREDENTIALS_FILE: the app of \S+ cannot serve 93 v1 endpoint\(s\), for want of scopes \(docs\/scopes\.md\): /,
    );
    const paths = warning!.split(': ').pop()!.split(', ');
    expect(paths).toContain('/meeting/create');
    expect(paths).not.toContain('/meeting/get');
    // The app whose token lists no scope v1gate knows is not judged, so not warned of.
    expect(checked.stdout).not.toContain('legacy-key-of-an-unknown-scoped-app');
    expect(checked.code).toBe(0);
  });

  it('the status page says which endpoints each mapped app cannot serve, and that an app with no token yet is not known', async () => {
    const late = { api_key: 'legacy-key-not-called-yet', api_secret: 'legacy-secret-not-called-yet' };
    rememberSecret(late.api_secret);
    const entries = JSON.parse(readFileSync(file, 'utf8')) as CredentialEntry[];
    const lateEntry = {
      api_key: late.api_key,
      secret_hash: await hashSecret(late.api_secret),
      previous_secrets: [],
      v2: await appWith(READ_ONLY_SCOPES),
    };
    writeFileSync(file, JSON.stringify([...entries, lateEntry]), { mode: 0o600 });
    expect(gateway.reloadCredentials()).toMatchObject({ ok: true });
    expect((await v1('/meeting/get', { id: String(meetingId), host_id: hostId })).body.id).toBe(meetingId);
    const data = (await (await fetch(`${gateway.url}/status/data`)).json()) as { sections: StatusSection[] };
    const section = data.sections.find((s) => s.id === 'scopes');
    expect(section).toMatchObject({ title: 'App scopes', level: 'warn' });
    expect(section!.summary).toBe('1 of 3 mapped OAuth app(s) cannot serve some v1 endpoints for want of scopes (docs/scopes.md)');
    const row = (apiKey: string) => section!.rows.find((r) => r.label === `key ${keyHash(apiKey)}`);
    expect(row(SCOPED.api_key)).toMatchObject({
      level: 'warn',
      value: expect.stringMatching(/^cannot serve 93 v1 endpoint\(s\), .*\/meeting\/create/),
    });
    expect(row(SCOPED.api_key)!.value).not.toMatch(/\/meeting\/get\b/);
    expect(row('legacy-key-of-an-unknown-scoped-app')).toMatchObject({ level: 'ok', value: expect.stringMatching(/not judged/) });
    expect(row(late.api_key)).toMatchObject({ level: 'idle', value: 'not known yet: no token held (the first call asks for one)' });
    // Reading the page asked for no token: the key not called yet still has none.
    const again = (await (await fetch(`${gateway.url}/status/data`)).json()) as { sections: StatusSection[] };
    expect(again.sections.find((s) => s.id === 'scopes')!.rows.find((r) => r.label === `key ${keyHash(late.api_key)}`)!.level).toBe('idle');
  });
});

describe('credentials check --scopes, as an operator runs it', () => {
  it('lists the v1 endpoints the app cannot serve, each with the scopes to add, and says which apps it could not judge', async () => {
    const refused: CredentialEntry = {
      api_key: 'legacy-key-of-a-deleted-app',
      secret_hash: await hashSecret('unused'),
      previous_secrets: [],
      v2: { kind: 'oauth', account_id: sandbox.sandbox.master.id, client_id: 'no-such-client', client_secret: 'no-such-secret' },
    };
    const listed = join(dirname(file), 'with-a-refused-app.json');
    writeFileSync(listed, JSON.stringify([...(JSON.parse(readFileSync(file, 'utf8')) as CredentialEntry[]), refused]), { mode: 0o600 });
    const checked = await run(join(ROOT, 'node_modules/.bin/tsx'), [
      'scripts/credentials.ts',
      'check',
      '--file',
      listed,
      '--scopes',
      '--token-url',
      `${sandbox.url}/oauth/token`,
    ]);
    expect(checked.stderr).toBe('');
    expect(checked.code).toBe(0);
    const lines = checked.stdout.split('\n');
    expect(lines).toContain(`${SCOPED.api_key}: its app's scopes cannot serve 93 v1 endpoint(s):`);
    expect(lines).toContain('  /meeting/create\tneeds meeting:write:meeting:admin');
    expect(lines.some((line) => line.startsWith('  /meeting/get\t'))).toBe(false);
    expect(lines.some((line) => line.startsWith('  /meeting/list\t'))).toBe(true);
    expect(lines).toContain(
      "legacy-key-of-an-unknown-scoped-app: its token lists no scope of today's documents (phone:read:admin); not judged.",
    );
    expect(lines.find((line) => line.startsWith('legacy-key-of-a-deleted-app: '))).toMatch(
      /^legacy-key-of-a-deleted-app: no token \(.+\); its scopes are unknown\.$/,
    );
  });
});
