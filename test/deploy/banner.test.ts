import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { rememberSecret } from '../support/gateway.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';

/**
 * What the start banner shows an operator (and whatever records a terminal or a unit's output):
 * the address the gateway is bound to, as set, and never a secret the operator configured; a
 * secret generated at this start exists nowhere else and is shown once.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXED = {
  SANDBOX_API_KEY: 'banner-test-key',
  SANDBOX_API_SECRET: 'banner-test-secret-0123456789',
  SANDBOX_OAUTH_CLIENT_ID: 'banner-test-client',
  SANDBOX_OAUTH_CLIENT_SECRET: 'banner-test-client-secret-0123456789',
};
for (const secret of [FIXED.SANDBOX_API_SECRET, FIXED.SANDBOX_OAUTH_CLIENT_SECRET]) rememberSecret(secret);

let gateway: GatewayProcess | undefined;
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

/** The banner once its last line (the call to try) is written. */
async function bannerOf(process: GatewayProcess): Promise<string> {
  for (let waited = 0; waited < 10_000 && !process.output().includes('try: curl'); waited += 50)
    await new Promise((resolve) => setTimeout(resolve, 50));
  return process.output();
}

describe('the start banner', () => {
  it('shows the address it is bound to, and no configured secret', { timeout: 60_000 }, async () => {
    gateway = await startGatewayProcess({ ...FIXED, HOST: '0.0.0.0', LOG_LEVEL: 'warn' });
    const banner = await bannerOf(gateway);
    expect(banner).toMatch(/^v1gate listening on http:\/\/0\.0\.0\.0:\d+\/v1 \(pid \d+\)$/m);
    expect(banner).toContain('sandbox API key:    banner-test-key');
    expect(banner).toContain('sandbox API secret: (SANDBOX_API_SECRET, not shown)');
    expect(banner).toContain('client secret (SANDBOX_OAUTH_CLIENT_SECRET, not shown)');
    expect(banner).toContain('-d api_secret="$SANDBOX_API_SECRET"');
    for (const secret of [FIXED.SANDBOX_API_SECRET, FIXED.SANDBOX_OAUTH_CLIENT_SECRET]) expect(banner).not.toContain(secret);
  });

  it('shows a generated secret once, with the way to fix it', { timeout: 60_000 }, async () => {
    gateway = await startGatewayProcess({ LOG_LEVEL: 'warn' });
    const banner = await bannerOf(gateway);
    const secret = /sandbox API secret: (\S+)/.exec(banner)![1]!;
    expect(secret).toMatch(/^[\w-]{30,}$/);
    expect(banner).toContain(`-d api_secret=${secret}`);
    expect(banner).toContain('set SANDBOX_API_KEY and SANDBOX_API_SECRET to keep them');
  });

  it('of npm run sandbox shows no configured secret either', { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/sandbox.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...FIXED, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    for (let waited = 0; waited < 30_000 && !output.includes('data in memory only'); waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    expect(output).toContain('API secret: (SANDBOX_API_SECRET, not shown)');
    expect(output).toContain('lost at every stop');
    for (const secret of [FIXED.SANDBOX_API_SECRET, FIXED.SANDBOX_OAUTH_CLIENT_SECRET]) expect(output).not.toContain(secret);
  });
});
