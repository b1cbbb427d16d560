import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * `check` opens what the start will open, and the start refuses the same files in one line naming
 * the setting, never with a library's stack trace. The compiled entry point, run as an operator
 * runs it. The machine's tests run as root, for whom every folder is writable by access(2): the
 * refusals here are the ones even root gets (a file under /proc, a folder that is a file, a folder
 * that does not exist where nothing makes it).
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let dir: string;
let subscriptions: string;
let notAFolder: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'v1gate-start-files-'));
  subscriptions = join(dir, 'subscriptions.json');
  writeFileSync(subscriptions, '[{"api_key": "k", "url": "https://x.example/hook"}]');
  notAFolder = join(dir, 'a-file');
  writeFileSync(notAFolder, 'not a folder');
});

function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['dist/src/main.js', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

const BAD: { variable: string; env: () => Record<string, string>; says: RegExp }[] = [
  { variable: 'LOG_FILE', env: () => ({ LOG_FILE: '/proc/v1gate.log' }), says: /cannot be written in \/proc/ },
  {
    variable: 'V1_RECORD_FILE',
    env: () => ({ V1_RECORD_FILE: join(dir, 'no-such-folder', 'calls.jsonl') }),
    says: /the folder .*no-such-folder does not exist/,
  },
  {
    variable: 'V1_WEBHOOKS_JOURNAL',
    env: () => ({
      V1_WEBHOOKS_FILE: subscriptions,
      V2_WEBHOOK_SECRET_TOKEN: 'a-secret-token-of-the-app',
      V1_WEBHOOKS_ANY_PORT: '1',
      V1_WEBHOOKS_JOURNAL: join(notAFolder, 'journal'),
    }),
    says: /cannot be made: .*a-file is not a folder/,
  },
  { variable: 'PID_FILE', env: () => ({ PID_FILE: join(dir, 'run', 'v1gate.pid') }), says: /the folder .*run does not exist/ },
  {
    variable: 'SANDBOX_DATA_FILE',
    env: () => ({ SANDBOX_API_KEY: 'k', SANDBOX_API_SECRET: 'a-fixed-secret-0123', SANDBOX_DATA_FILE: '/proc/sandbox.json' }),
    says: /cannot be made in \/proc|cannot be written in \/proc/,
  },
  {
    variable: 'V2_CREDENTIALS_FILE',
    env: () => ({ V2_CREDENTIALS_FILE: join(dir, 'no-such-map.json') }),
    says: /no-such-map\.json/,
  },
];

describe('a file the start could not open', () => {
  for (const { variable, env, says } of BAD) {
    it(`${variable}: check names it, and start stops in one line naming it, no stack trace`, async () => {
      const check = await run(['check'], env());
      expect(check.code).toBe(1);
      expect(check.stdout).toMatch(new RegExp(`^ {2}${variable}: .*${says.source}`, 'm'));

      const start = await run([], env());
      expect(start.code).toBe(1);
      expect(start.stdout).not.toContain('listening');
      expect(start.stderr).toMatch(new RegExp(`^v1gate: cannot start: [^\\n]*\\n {2}${variable}: [^\\n]*${says.source}`, 'm'));
      expect(start.stderr).not.toMatch(/^\s+at /m);
    });
  }
});

describe('files the start can open', () => {
  it('pass check, which leaves nothing behind, and the start opens them', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'v1gate-good-files-'));
    const env = {
      LOG_FILE: join(folder, 'logs', 'v1gate.log'),
      V1_RECORD_FILE: join(folder, 'calls.jsonl'),
      PID_FILE: join(folder, 'v1gate.pid'),
      SANDBOX_API_KEY: 'k',
      SANDBOX_API_SECRET: 'a-fixed-secret-0123',
      SANDBOX_DATA_FILE: join(folder, 'state', 'sandbox.json'),
    };
    const check = await run(['check'], env);
    expect(check.stdout).toContain('the configuration is good');
    expect(check.code).toBe(0);
    expect(readdirSync(folder)).toEqual([]);
  });
});
