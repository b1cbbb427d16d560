import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../../src/upstream/auth/secret-hash.js';

/**
 * The command line, run as an operator runs it: `node dist/src/main.js --help | --version | check`
 * (and nothing: start). Problems are one clear line each, name the setting, carry no stack trace
 * and never a secret.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SECRET = 'hunter2-not-to-be-printed';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The gateway's entry point with exactly this environment (and PATH), to its exit. */
function run(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const child = spawn(process.execPath, ['dist/src/main.js', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

let dir: string;
let busy: Server;
let busyPort: number;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'v1gate-cli-'));
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  busyPort = (busy.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => busy.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('--help and --version', () => {
  it('--help lists the commands and every setting, and starts nothing', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^v1gate \d+\.\d+\.\d+/);
    for (const word of ['check', '--version', 'PORT', 'V2_BASE_URL', 'RATE_LIMIT_STORE_FAILURE', 'V1_WEBHOOKS_FILE', 'STATUS_TOKEN']) {
      expect(help.stdout).toContain(word);
    }
    expect(help.stdout).not.toContain('listening');
  });

  it('--version prints the version of package.json', async () => {
    const { version } = (await import('../../package.json', { with: { type: 'json' } })).default;
    expect(await run(['--version'])).toEqual({ code: 0, stdout: `v1gate ${version}\n`, stderr: '' });
  });

  it('answers through npm start too (its arguments after --)', async () => {
    // --ignore-scripts skips only the prestart build, done by the suite's setup.
    const child = spawn('npm', ['start', '--ignore-scripts', '--silent', '--', '--version'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(code).toBe(0);
    expect(stdout).toMatch(/^v1gate \d+\.\d+\.\d+\n$/);
  });

  it('an unknown command is a usage error (exit 2), not a start', async () => {
    const wrong = await run(['--hlep']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toBe('v1gate: unknown command or option: --hlep (try --help)\n');
  });
});

describe('check', () => {
  it('passes a good configuration (exit 0) and names a misspelt setting', async () => {
    const good = await run(['check'], { PORT: '0', PROT: '8081', V1_WEBHOOK_FILE: 'hooks.json' });
    expect(good.code).toBe(0);
    expect(good.stdout).toContain('the configuration is good');
    expect(good.stdout).toContain('warning: PROT is not a v1gate setting and is ignored: did you mean PORT?');
    expect(good.stdout).toContain('warning: V1_WEBHOOK_FILE is not a v1gate setting and is ignored: did you mean V1_WEBHOOKS_FILE?');
  });

  it('lists every problem of the variables at once (exit 1), never a secret', async () => {
    const bad = await run(['check'], {
      PORT: 'eighty',
      STATUS_TOKEN: SECRET.slice(0, 10),
      RATE_LIMIT_SCALE: 'fast',
      V1_WEBHOOKS_FILE: 'x.json',
    });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('4 problem(s)');
    for (const variable of ['PORT', 'STATUS_TOKEN', 'RATE_LIMIT_SCALE', 'V2_WEBHOOK_SECRET_TOKEN'])
      expect(bad.stdout).toMatch(new RegExp(`^  ${variable}: `, 'm'));
    expect(bad.stdout + bad.stderr).not.toContain(SECRET.slice(0, 10));
  });

  it('checks what the variables name: the webhooks file, the port, Redis and the v2 service', async () => {
    const file = join(dir, 'subscriptions.json');
    writeFileSync(file, `[{"api_key": "k", "url": "https://x.example", "username": "u", "password": "${SECRET}"`);
    const bad = await run(['check'], {
      PORT: String(busyPort),
      REDIS_URL: `redis://:${SECRET}@127.0.0.1:1`,
      V2_BASE_URL: 'http://127.0.0.1:1/v2',
      V1_WEBHOOKS_FILE: file,
      V2_WEBHOOK_TOKEN: 'a-token-of-the-v2-app',
      READY_TIMEOUT_MS: '2000',
    });
    expect(bad.code).toBe(1);
    expect(bad.stdout.split('\n').filter((l) => /^ {2}[A-Z]/.test(l))).toEqual([
      `  V1_WEBHOOKS_FILE: ${file} is not valid JSON`,
      `  PORT: 127.0.0.1:${busyPort} is in use by another process (stop it, or set PORT to a free port)`,
      '  REDIS_URL: Redis at redis://127.0.0.1:1 does not answer (connection refused)',
      '  V2_BASE_URL: the v2 service at http://127.0.0.1:1 does not answer (connection refused)',
    ]);
    expect(bad.stdout + bad.stderr).not.toContain(SECRET);
  });
});

describe('a V2_BASE_URL with a user and password', () => {
  const USER = 'v2-proxy-user-not-to-be-printed';
  const withCredentials = `https://${USER}:${SECRET}@v2.example.invalid/v2`;
  const refusal =
    'V2_BASE_URL: must not carry a user or password (https://user:password@...): v2 calls authenticate with the app’s token alone';

  it('is refused by check and by the start, naming the setting, and neither shows the user or the password anywhere', async () => {
    const files = mkdtempSync(join(dir, 'credentials-url-'));
    const env = {
      PORT: '0',
      V2_BASE_URL: withCredentials,
      LOG_FILE: join(files, 'v1gate.log'),
      PID_FILE: join(files, 'v1gate.pid'),
    };
    const checked = await run(['check'], env);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toContain(`  ${refusal}\n`);
    const started = await run([], env);
    expect(started.code).toBe(1);
    expect(started.stderr).toContain(refusal);
    expect(started.stdout).not.toContain('listening');
    const written = readdirSync(files).map((name) => readFileSync(join(files, name), 'utf8'));
    for (const text of [checked.stdout, checked.stderr, started.stdout, started.stderr, ...written]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(USER);
    }
  });
});

describe('a start that cannot happen', () => {
  it('says why in one line, names the setting, and shows no stack trace', async () => {
    const inUse = await run([], { PORT: String(busyPort) });
    expect(inUse.code).toBe(1);
    expect(inUse.stderr).toBe(
      `v1gate: cannot start: PORT: 127.0.0.1:${busyPort} is in use by another process (stop it, or set PORT to a free port)\n`,
    );

    const file = join(dir, 'broken.json');
    writeFileSync(file, `{"password": ${SECRET}`);
    const badFile = await run([], { PORT: '0', V1_WEBHOOKS_FILE: file, V2_WEBHOOK_TOKEN: 'a-token-of-the-v2-app' });
    expect(badFile.code).toBe(1);
    expect(badFile.stderr).toBe(`v1gate: cannot start: V1_WEBHOOKS_FILE: ${file} is not valid JSON\n`);

    const badToken = await run([], { PORT: '0', STATUS_TOKEN: 'short-tok' });
    expect(badToken.code).toBe(1);
    expect(badToken.stderr).toBe('v1gate: cannot start: Invalid configuration:\n  STATUS_TOKEN: must be at least 16 characters\n');
  });
});

describe('a v2 elsewhere than this machine, which takes no JWT today', () => {
  const REMOTE = 'https://v2.example.invalid/v2';

  it('is refused at start while any key would sign a JWT, naming the keys and the fix', async () => {
    const unmapped = await run([], { PORT: '0', V2_BASE_URL: REMOTE });
    expect(unmapped.code).toBe(1);
    expect(unmapped.stderr).toMatch(/V2_CREDENTIALS_ONLY: off, so a key the credential map does not name would sign its own JWT/);
    expect(unmapped.stderr).not.toMatch(/\n\s+at /);

    const file = join(dir, 'jwt-map.json');
    const v2 = { kind: 'jwt', key: 'v2-key', secret: SECRET };
    writeFileSync(file, JSON.stringify([{ api_key: 'legacy-jwt-key', secret_hash: await hashSecret('s'), v2 }]), { mode: 0o600 });
    const jwtMapped = await run([], { PORT: '0', V2_BASE_URL: REMOTE, V2_CREDENTIALS_FILE: file, V2_CREDENTIALS_ONLY: '1' });
    expect(jwtMapped.code).toBe(1);
    expect(jwtMapped.stderr).toContain("V2_CREDENTIALS_FILE: 1 key(s) mapped to a JWT app, which today's v2 refuses (legacy-jwt-key)");
    expect(jwtMapped.stderr).not.toContain('V2_CREDENTIALS_ONLY');
    expect(jwtMapped.stderr).not.toContain(SECRET);
  });

  it('passes check with every key mapped to an OAuth app and V2_CREDENTIALS_ONLY, and fails it without', async () => {
    const file = join(dir, 'oauth-map.json');
    const v2 = { kind: 'oauth', account_id: 'acc', client_id: 'cid', client_secret: SECRET };
    writeFileSync(file, JSON.stringify([{ api_key: 'legacy-key', secret_hash: await hashSecret('s'), v2 }]), { mode: 0o600 });
    const env = { PORT: '0', V2_BASE_URL: REMOTE, V2_CREDENTIALS_FILE: file, READY_TIMEOUT_MS: '2000' };
    const mapped = await run(['check'], { ...env, V2_CREDENTIALS_ONLY: '1' });
    expect(mapped.stdout).toMatch(/^ {2}V2_BASE_URL: /m);
    expect(mapped.stdout).not.toMatch(/JWT/);
    const open = await run(['check'], env);
    expect(open.code).toBe(1);
    expect(open.stdout).toMatch(/^ {2}V2_CREDENTIALS_ONLY: off, so a key/m);
  });
});
