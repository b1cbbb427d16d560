import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayProcess } from '../support/process-gateway.js';

/**
 * LOG_FORMAT=json: every line the process writes is a log line of one shape, the logger's: the
 * start's warnings (written before any logger exists), the banner, the logger's own lines, the
 * stop line, and the reason a start fails. A collector reading the output parses all of it.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const LOGGER_KEYS = ['level', 'time', 'service', 'pid', 'msg'];

/** Each line of `text`, which must be a JSON object. */
function jsonLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      expect(() => JSON.parse(line), line).not.toThrow();
      return JSON.parse(line) as Record<string, unknown>;
    });
}

let busy: Server;
beforeAll(async () => {
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise((resolve) => busy.close(resolve)));

describe('LOG_FORMAT=json', () => {
  it('writes the warnings, the banner, the log and the stop line as JSON log lines of one shape', { timeout: 60_000 }, async () => {
    // PROT: a misspelt PORT, warned about before the logger exists.
    const gateway = await startGatewayProcess({ LOG_FORMAT: 'json', LOG_LEVEL: 'info', PROT: '8080' });
    const accounts = (await (await fetch(`${gateway.url}/sandbox/accounts`)).json()) as {
      accounts: { api_secret?: string; oauth_apps: { client_secret?: string }[] }[];
    };
    const exited = new Promise<void>((resolve) => gateway.onExit(() => resolve()));
    gateway.signal('SIGTERM');
    await exited;
    for (let waited = 0; waited < 5_000 && !gateway.output().includes('v1gate stopped'); waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));

    const lines = jsonLines(gateway.output());
    for (const line of lines) expect(Object.keys(line), JSON.stringify(line)).toEqual(expect.arrayContaining(LOGGER_KEYS));
    const said = (pattern: RegExp) => lines.find((line) => pattern.test(String(line.msg)));
    expect(said(/warning: PROT/)).toMatchObject({ level: 40, source: 'start' });
    expect(said(/^v1gate listening on /)).toMatchObject({ level: 30, source: 'start', url: `${gateway.url}/v1` });
    expect(said(/^sandbox API key: /)).toBeDefined();
    // The logger's own line, of the same shape: the drain.
    expect(said(/^draining/)).toMatchObject({ level: 30, signal: 'SIGTERM' });
    expect(said(/^v1gate stopped/)).toMatchObject({ level: 30, drainedMs: expect.any(Number) });
    // A secret made at this start is not written where a log collector keeps it.
    const secrets = accounts.accounts
      .flatMap((a) => [a.api_secret, ...a.oauth_apps.map((app) => app.client_secret)])
      .filter((s) => s !== undefined);
    expect(secrets.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(gateway.output()).not.toContain(secret);
  });

  it('writes the reason a start fails as a JSON line at error', async () => {
    const port = (busy.address() as { port: number }).port;
    const child = spawn(process.execPath, ['dist/src/main.js'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', LOG_FORMAT: 'json', PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(code).toBe(1);
    const [line, ...more] = jsonLines(stderr);
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      level: 50,
      msg: `v1gate: cannot start: PORT: 127.0.0.1:${port} is in use by another process (stop it, or set PORT to a free port)`,
    });
  });
});
