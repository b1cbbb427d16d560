import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CredentialMap, readCredentialFile } from '../../src/upstream/auth/credential-map.js';

/** `npm run credentials`: a real process editing a real file, read back by the gateway's own loader. */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'v1gate-credentials-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: string[], input?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      join(ROOT, 'node_modules/.bin/tsx'),
      ['scripts/credentials.ts', ...args],
      { cwd: ROOT },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
    child.stdin!.end(input ?? '');
  });
}

describe('npm run credentials', () => {
  it('hashes a secret given or piped, never printing it back', async () => {
    const given = await cli(['hash', 'the-legacy-secret']);
    expect(given.code).toBe(0);
    expect(given.stdout).toMatch(/^\$scrypt\$ln=12,r=8,p=1\$\S+\n$/);
    const piped = await cli(['hash'], 'the-legacy-secret\n');
    expect(piped.stdout).toMatch(/^\$scrypt\$/);
    expect(given.stdout + piped.stdout).not.toContain('the-legacy-secret');
  });

  it('adds keys mapped to an OAuth app and a JWT app, in a file only its owner can read, with no v1 secret in it', async () => {
    const file = join(dir, 'add.json');
    const oauth = await cli(
      [
        'add',
        '--file',
        file,
        '--api-key',
        'legacy-key',
        '--secret',
        '-',
        '--account-id',
        'acc',
        '--client-id',
        'cid',
        '--client-secret',
        '-',
      ],
      'legacy-secret\nclient-secret\n',
    );
    expect(oauth).toMatchObject({ code: 0 });
    const jwt = await cli([
      'add',
      '--file',
      file,
      '--api-key',
      'other-key',
      '--secret',
      'other-secret',
      '--jwt-key',
      'k2',
      '--jwt-secret',
      's2',
      '--plan',
      'Business',
    ]);
    expect(jwt.code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('legacy-secret');
    expect(text).not.toContain('other-secret');
    const map = new CredentialMap(readCredentialFile(file));
    expect(await map.verify('legacy-key', 'legacy-secret')).toEqual({
      kind: 'accepted',
      v2: { kind: 'oauth', accountId: 'acc', clientId: 'cid', clientSecret: 'client-secret' },
      untilMs: Infinity,
    });
    // The plan given sizes the v2 account's budgets; none given: the gateway's default.
    expect(await map.verify('other-key', 'other-secret')).toMatchObject({ kind: 'accepted', v2: { kind: 'jwt', plan: 'business' } });
    expect(
      await cli(['add', '--file', file, '--api-key', 'k3', '--secret', 'x', '--jwt-key', 'a', '--jwt-secret', 'b', '--plan', 'gold']),
    ).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--plan is pro or business/),
    });

    const again = await cli(['add', '--file', file, '--api-key', 'legacy-key', '--secret', 'x', '--jwt-key', 'a', '--jwt-secret', 'b']);
    expect(again).toMatchObject({ code: 1, stderr: expect.stringMatching(/in the file already/) });
    expect((await cli(['list', '--file', file])).stdout).toBe('legacy-key\toauth\nother-key\tjwt\tplan business\n');
  });

  it('rotates a legacy secret: a new one printed once, the old one accepted until the stated time, v2 untouched', async () => {
    const file = join(dir, 'rotate.json');
    await cli(['add', '--file', file, '--api-key', 'k', '--secret', 'old-secret', '--jwt-key', 'v2k', '--jwt-secret', 'v2s']);
    const before = readCredentialFile(file)[0]!;
    const rotated = await cli(['rotate', '--file', file, '--api-key', 'k', '--keep-old-until', '2099-01-01T00:00:00Z']);
    expect(rotated.code).toBe(0);
    const newSecret = rotated.stdout.trim();
    expect(newSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(rotated.stderr).toMatch(/accepted until 2099-01-01T00:00:00\.000Z/);
    const after = readCredentialFile(file)[0]!;
    expect(after.v2).toEqual(before.v2);
    expect(after.previous_secrets).toEqual([{ secret_hash: before.secret_hash, until: '2099-01-01T00:00:00Z' }]);
    let now = Date.parse('2098-12-31T23:59:59Z');
    const map = new CredentialMap([after], { now: () => now });
    expect((await map.verify('k', newSecret)).kind).toBe('accepted');
    expect((await map.verify('k', 'old-secret')).kind).toBe('accepted');
    now = Date.parse('2099-01-01T00:00:00Z');
    expect((await map.verify('k', 'old-secret')).kind).toBe('refused');
    expect((await cli(['rotate', '--file', file, '--api-key', 'nobody'])).stderr).toMatch(/not in the file/);
  });

  it('checks a file, listing every problem on a line of its own, and answers usage errors without a trace', async () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify([{ api_key: 'k', secret_hash: 'plain', v2: { kind: 'oauth', account_id: 'a' } }]));
    const checked = await cli(['check', '--file', file]);
    expect(checked.code).toBe(1);
    const lines = checked.stderr.trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) expect(line.startsWith(`${file}: [0]`)).toBe(true);
    expect(checked.stderr).not.toContain('plain');
    const usage = await cli(['frobnicate']);
    expect(usage).toMatchObject({ code: 2, stderr: expect.stringMatching(/Unknown command: frobnicate\n\nusage:/) });
    expect(usage.stderr).not.toMatch(/\n\s+at /);
    expect((await cli(['--help'])).stdout).toMatch(/^usage: npm run -s credentials/);
  });
});
