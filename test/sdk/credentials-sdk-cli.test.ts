import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CredentialMap, readCredentialFile } from '../../src/upstream/auth/credential-map.js';

/** `npm run credentials` giving a key a Meeting SDK app: a real process editing a real file, read back by the gateway's loader. */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'v1gate-sdk-credentials-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[], input = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      join(ROOT, 'node_modules/.bin/tsx'),
      ['scripts/credentials.ts', ...args],
      { cwd: ROOT },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
    child.stdin!.end(input);
  });
}

const OAUTH = ['--account-id', 'acc', '--client-id', 'cid', '--client-secret', '-'];

describe('npm run credentials: SDK apps', () => {
  it('adds a key with an SDK app, its secrets read from standard input in order, listed by its key only', async () => {
    const file = join(dir, 'add.json');
    const added = await cli(
      ['add', '--file', file, '--api-key', 'legacy', '--secret', '-', ...OAUTH, '--sdk-key', 'sdk-key-1', '--sdk-secret', '-'],
      'legacy-secret\nclient-secret\nsdk-secret-1\n',
    );
    expect(added.code).toBe(0);
    const [entry] = readCredentialFile(file);
    expect(entry!.sdk).toEqual({ key: 'sdk-key-1', secret: 'sdk-secret-1' });
    expect(entry!.v2).toMatchObject({ client_secret: 'client-secret' });
    expect(new CredentialMap([entry!]).sdkAppOf('legacy')).toEqual({ key: 'sdk-key-1', secret: 'sdk-secret-1' });
    expect((await cli(['check', '--file', file])).stdout).toBe(`${file}: 1 key (1 with an SDK app), no problem.\n`);
    const listed = await cli(['list', '--file', file]);
    expect(listed.stdout).toBe('legacy\toauth\tsdk sdk-key-1\n');
    expect(listed.stdout + (await cli(['check', '--file', file])).stdout).not.toContain('sdk-secret-1');
  });

  it('gives an existing key an SDK app, replaces it and takes it away, leaving the rest of the entry as it was', async () => {
    const file = join(dir, 'sdk.json');
    await cli(['add', '--file', file, '--api-key', 'k', '--secret', 's', ...OAUTH], 'client-secret\n');
    const before = readCredentialFile(file)[0]!;
    expect(before.sdk).toBeUndefined();
    expect((await cli(['sdk', '--file', file, '--api-key', 'k', '--sdk-key', 'a', '--sdk-secret', '-'], 'first\n')).code).toBe(0);
    expect(readCredentialFile(file)[0]).toEqual({ ...before, sdk: { key: 'a', secret: 'first' } });
    await cli(['sdk', '--file', file, '--api-key', 'k', '--sdk-key', 'b', '--sdk-secret', 'second']);
    expect(readCredentialFile(file)[0]!.sdk).toEqual({ key: 'b', secret: 'second' });
    expect((await cli(['sdk', '--file', file, '--api-key', 'k', '--remove'])).code).toBe(0);
    expect(readCredentialFile(file)[0]).toEqual(before);
  });

  it('refuses half an SDK app, an unknown key, and a file whose SDK app is malformed', async () => {
    const file = join(dir, 'bad.json');
    await cli(['add', '--file', file, '--api-key', 'k', '--secret', 's', ...OAUTH], 'client-secret\n');
    const text = readFileSync(file, 'utf8');
    expect((await cli(['sdk', '--file', file, '--api-key', 'k', '--sdk-secret', 'x'])).stderr).toMatch(/--sdk-key is required/);
    expect((await cli(['sdk', '--file', file, '--api-key', 'k'])).stderr).toMatch(/--sdk-key and --sdk-secret, or --remove/);
    expect((await cli(['sdk', '--file', file, '--api-key', 'nobody', '--sdk-key', 'a', '--sdk-secret', 'b'])).stderr).toMatch(
      /not in the file/,
    );
    expect(readFileSync(file, 'utf8')).toBe(text);
    const entries = JSON.parse(text);
    entries[0].sdk = { key: 'a' };
    writeFileSync(file, JSON.stringify(entries));
    const checked = await cli(['check', '--file', file]);
    expect(checked).toMatchObject({ code: 1, stderr: expect.stringContaining('[0].sdk.secret') });
  });
});
