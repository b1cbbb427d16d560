import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { hashSecret } from '../../src/upstream/auth/secret-hash.js';
import { emptyCredentialFile, rememberSecret } from '../support/gateway.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';

/**
 * A running gateway process takes a changed credentials file on SIGHUP, as operators reload nginx
 * or HAProxy: no restart, no call lost. One process, and a cluster (the primary passes the reload
 * on to every worker). Run as a service runs it (not under npm, no terminal: the suite itself may
 * run under `npm test`, whose npm_lifecycle_event a child inherits), and with SIGUSR2, which
 * reloads however the gateway was started.
 */

const SANDBOX = {
  SANDBOX_API_KEY: 'reload-test-key',
  SANDBOX_API_SECRET: 'reload-test-secret-0123456789',
  SANDBOX_OAUTH_CLIENT_ID: 'reload-test-client',
  SANDBOX_OAUTH_CLIENT_SECRET: 'reload-test-client-secret-0123456789',
};
const LEGACY = { api_key: 'a-key-v2-never-saw', api_secret: 'a-legacy-secret-nobody-rotated' };
for (const secret of [SANDBOX.SANDBOX_API_SECRET, SANDBOX.SANDBOX_OAUTH_CLIENT_SECRET, LEGACY.api_secret]) rememberSecret(secret);

let gateway: GatewayProcess | undefined;
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

async function getByEmail(url: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}/v1/user/getbyemail`, {
    method: 'POST',
    body: new URLSearchParams({ ...LEGACY, email: 'owner@sandbox.v1gate.local' }),
  });
  return (await response.json()) as Record<string, unknown>;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, deadlineMs = 30_000): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each([
  ['SIGHUP', 'one process', {}],
  ['SIGHUP', 'a cluster of two workers', { WORKERS: '2' }],
  ['SIGUSR2', 'one process', {}],
  ['SIGUSR2', 'a cluster of two workers', { WORKERS: '2' }],
] as const)('%s, %s', (signal, _name, extra: Record<string, string>) => {
  it('loads a changed credentials file: a key mapped after the start works without a restart', async () => {
    const file = emptyCredentialFile();
    gateway = await startGatewayProcess(
      {
        ...SANDBOX,
        ...extra,
        V2_CREDENTIALS_FILE: file,
        V1_RATE_LIMITS: 'off',
        V2_RATE_LIMITS: 'off',
        LOG_LEVEL: 'info',
        npm_lifecycle_event: '',
      },
      { startTimeoutMs: 30_000 },
    );
    const banner = /sandbox OAuth app: {2}account \S+, client id reload-test-client, client secret/;
    expect(
      await until(
        async () => gateway!.output(),
        (output) => banner.test(output),
      ),
    ).toMatch(banner);
    // Unmapped, the legacy key is its own v2 credential, which v2 refuses.
    expect(await getByEmail(gateway.url)).toMatchObject({ error: { code: 102 } });

    const accounts = (await (await fetch(`${gateway.url}/sandbox/accounts`)).json()) as { accounts: { id: string }[] };
    const entry = {
      api_key: LEGACY.api_key,
      secret_hash: await hashSecret(LEGACY.api_secret),
      v2: {
        kind: 'oauth',
        account_id: accounts.accounts[0]!.id,
        client_id: SANDBOX.SANDBOX_OAUTH_CLIENT_ID,
        client_secret: SANDBOX.SANDBOX_OAUTH_CLIENT_SECRET,
      },
    };
    writeFileSync(file, JSON.stringify([entry]));
    gateway.signal(signal);
    // Every worker must have it: ask several times (each call may land on either).
    const answers = await until(
      () => Promise.all(Array.from({ length: 6 }, () => getByEmail(gateway!.url))),
      (all) => all.every((a) => a.email === 'owner@sandbox.v1gate.local'),
    );
    for (const answer of answers) expect(answer).toMatchObject({ email: 'owner@sandbox.v1gate.local' });
    // Log lines on a pipe go out within half a second.
    expect(
      await until(
        async () => gateway!.output(),
        (output) => /V2_CREDENTIALS_FILE reloaded/.test(output),
      ),
    ).toMatch(/V2_CREDENTIALS_FILE reloaded/);
    expect(gateway.output()).not.toContain(LEGACY.api_secret);
  });
});
