import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rememberSecret, testLogEnv } from '../support/gateway.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';

/** `npm run v2-token` finds the gateway where PORT puts it, as npm start does, without an origin given. */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pair = { SANDBOX_API_KEY: 'v2-token-script-key', SANDBOX_API_SECRET: 'v2-token-script-secret-0123456789' };
rememberSecret(pair.SANDBOX_API_SECRET);

let gateway: GatewayProcess;
beforeAll(async () => {
  gateway = await startGatewayProcess({ ...testLogEnv(), ...pair });
}, 60_000);
afterAll(() => gateway?.stop());

function v2Token(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/v2-token.ts', pair.SANDBOX_API_KEY, pair.SANDBOX_API_SECRET], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

describe('npm run v2-token', () => {
  it('asks the gateway at PORT when no origin is given, and its token opens the sandbox’s /v2', { timeout: 60_000 }, async () => {
    const port = new URL(gateway.url).port;
    const run = await v2Token({ PORT: port });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const token = run.stdout.trim();
    rememberSecret(token);
    const me = await fetch(`${gateway.url}/v2/users/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
  });
});
