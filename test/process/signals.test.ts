import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * `npm start` as an operator runs it, signalled as a supervisor (or a person with `kill`) signals
 * it: the pid it shows is npm's, and a SIGTERM there must stop the gateway (drained, exit 0), not
 * leave it serving as an orphan. `--ignore-scripts` skips only the prestart build, which the suite's
 * setup has done already.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let npm: ChildProcess | undefined;
let gatewayPid: number | undefined;
afterEach(() => {
  for (const pid of [npm?.pid, gatewayPid]) {
    try {
      if (pid) process.kill(pid, 'SIGKILL');
    } catch {
      // gone already, as it should be
    }
  }
  npm = gatewayPid = undefined;
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('npm start', () => {
  it('stops the gateway when its own pid gets SIGTERM: drained, exit 0, no orphan left serving', async () => {
    npm = spawn('npm', ['start', '--ignore-scripts', '--silent'], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', V1_RATE_LIMITS: 'off', V2_RATE_LIMITS: 'off' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    npm.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const banner = await new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start did not start the gateway in 30 s:\n${output}`)), 30_000);
      npm!.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /v1gate listening on (http:\/\/\S+)\/v1 \(pid (\d+)\)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match);
        }
      });
    });
    const url = banner[1]!;
    gatewayPid = Number(banner[2]);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);

    const exited = new Promise<number | null>((resolve) => npm!.once('exit', (code) => resolve(code)));
    npm.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (let i = 0; i < 100 && alive(gatewayPid); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(alive(gatewayPid)).toBe(false);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });
});
