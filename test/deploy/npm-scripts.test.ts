import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * Every npm script that starts a server, signalled through the pid an operator has: npm's. npm
 * passes TERM and INT to its script, which must be the server itself (`exec`), not a shell or a
 * wrapper that dies and leaves the server running. A HUP is a terminal hanging up: to the whole
 * group (`setsid npm start`, then the terminal closes) or to npm alone, nothing of the gateway may
 * stay. Reloading goes through PID_FILE: `npm run reload` sends SIGUSR2 to the gateway itself.
 * Real processes, real signals.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const started: ChildProcess[] = [];
const serverPids: number[] = [];
afterEach(() => {
  for (const pid of [...started.map((c) => c.pid), ...serverPids]) {
    try {
      if (pid) process.kill(pid, 'SIGKILL');
    } catch {
      // gone already, as it should be
    }
  }
  started.length = serverPids.length = 0;
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

interface Npm {
  child: ChildProcess;
  output(): string;
  /** Resolves with the first match of `pattern` in what the script printed. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  exited: Promise<number | null>;
}

function npm(args: string[], env: Record<string, string>, options: { ownSession?: boolean } = {}): Npm {
  // --ignore-scripts skips only npm start's prestart build, which the suite's setup has done.
  // ownSession: `setsid npm ...`, npm leading a process group of its own, as a terminal's job is.
  const child = spawn('npm', [...args, '--ignore-scripts', '--silent'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', V1_RATE_LIMITS: 'off', V2_RATE_LIMITS: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.ownSession ?? false,
  });
  started.push(child);
  let output = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitFor = (pattern: RegExp, timeoutMs = 60_000) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(output);
        if (!match) return;
        listeners.delete(check);
        clearTimeout(timer);
        resolve(match);
      };
      const timer = setTimeout(
        () => reject(new Error(`no ${pattern} from npm ${args.join(' ')} in ${timeoutMs} ms:\n${output}`)),
        timeoutMs,
      );
      listeners.add(check);
      check();
    });
  return { child, output: () => output, waitFor, exited };
}

async function gone(pid: number): Promise<boolean> {
  for (let waited = 0; waited < 20_000; waited += 50) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

describe.each([
  ['npm start', ['start']],
  ['npm run dev', ['run', 'dev']],
])('%s', (_name, args) => {
  it('reloads the credential map on npm run reload, and stops on SIGTERM to npm’s pid', { timeout: 120_000 }, async () => {
    const folder = mkdtempSync(join(tmpdir(), 'v1gate-npm-'));
    const env = { PID_FILE: join(folder, 'v1gate.pid'), V2_CREDENTIALS_FILE: join(folder, 'credentials.json'), LOG_LEVEL: 'info' };
    writeFileSync(env.V2_CREDENTIALS_FILE, '[]\n');
    const server = npm(args, env);
    const banner = await server.waitFor(/v1gate listening on (http:\/\/\S+)\/v1 \(pid (\d+)\)/);
    const pid = Number(banner[2]);
    serverPids.push(pid);
    expect(pid).not.toBe(server.child.pid);
    expect(readFileSync(env.PID_FILE, 'utf8').trim()).toBe(String(pid));

    const reload = npm(['run', 'reload'], env);
    expect(await reload.exited).toBe(0);
    expect(reload.output()).toContain(`SIGUSR2 sent to the gateway (pid ${pid})`);
    await server.waitFor(/V2_CREDENTIALS_FILE reloaded/);
    expect(alive(pid)).toBe(true);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(await gone(pid)).toBe(true);
    expect(server.output()).toMatch(/v1gate stopped \(pid \d+\): drained in \d+ ms/);
    expect(existsSync(env.PID_FILE)).toBe(false);
  });
});

describe('npm start and a hang-up', () => {
  /** The gateway's pid from its banner, and the npm child it runs under. */
  async function started(ownSession: boolean): Promise<{ server: Npm; pid: number }> {
    const server = npm(['start'], { LOG_LEVEL: 'info' }, { ownSession });
    const banner = await server.waitFor(/v1gate listening on (http:\/\/\S+)\/v1 \(pid (\d+)\)/);
    const pid = Number(banner[2]);
    serverPids.push(pid);
    expect((await fetch(`${banner[1]}/healthz`)).status).toBe(200);
    return { server, pid };
  }

  it('a HUP to its process group (the terminal closed) leaves nothing of v1gate running', { timeout: 120_000 }, async () => {
    const { server, pid } = await started(true);
    process.kill(-server.child.pid!, 'SIGHUP');
    await server.exited;
    expect(await gone(pid)).toBe(true);
    expect(server.output()).toMatch(/"signal":"SIGHUP".*draining/);
    expect(server.output()).not.toContain('V2_CREDENTIALS_FILE reloaded');
  });

  it('a HUP to npm alone, which npm does not pass on, stops the gateway all the same', { timeout: 120_000 }, async () => {
    const { server, pid } = await started(false);
    server.child.kill('SIGHUP');
    await server.exited;
    expect(await gone(pid)).toBe(true);
  });
});

describe('npm run sandbox', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`stops the sandbox on ${signal} to npm’s pid`, { timeout: 120_000 }, async () => {
      const sandbox = npm(['run', 'sandbox'], {});
      const banner = await sandbox.waitFor(/v2 sandbox on (http:\/\/\S+)\/v2 \(pid (\d+)\)/);
      const pid = Number(banner[2]);
      serverPids.push(pid);
      expect((await fetch(`${banner[1]}/v2/users`)).status).toBe(401);
      sandbox.child.kill(signal);
      await sandbox.exited;
      expect(await gone(pid)).toBe(true);
      expect(sandbox.output()).toContain(`v2 sandbox stopped (${signal})`);
    });
  }
});

describe('npm run reload', () => {
  it('says why it cannot, without PID_FILE or with a stale one', { timeout: 60_000 }, async () => {
    const none = npm(['run', 'reload'], { PID_FILE: '' });
    expect(await none.exited).toBe(1);
    expect(none.output()).toContain('PID_FILE is not set');
    const stale = join(mkdtempSync(join(tmpdir(), 'v1gate-npm-')), 'v1gate.pid');
    writeFileSync(stale, '999999999\n');
    const old = npm(['run', 'reload'], { PID_FILE: stale });
    expect(await old.exited).toBe(1);
    expect(old.output()).toContain('process 999999999 named in');
  });
});

describe('npm run webhooks -- --help', () => {
  it('prints the usage and exits 0, with no secret token set', { timeout: 60_000 }, async () => {
    const help = npm(['run', 'webhooks', '--', '--help'], { V2_WEBHOOK_SECRET_TOKEN: '', V2_WEBHOOK_TOKEN: '' });
    expect(await help.exited).toBe(0);
    expect(help.output()).toMatch(/^usage: npm run webhooks -- list \| replay <id>\|all$/m);
    expect(help.output()).not.toContain('must be set');
  });
});
