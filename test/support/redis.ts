import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real redis-server for integration tests: its own process, a free loopback port, no
 * persistence, a temporary directory. `stop()` and `start()` again on the same port let a test
 * take Redis away mid-run and bring it back.
 */

export interface RunningRedis {
  url: string;
  port: number;
  /** Start it again (after stop) on the same port, empty. */
  start(): Promise<void>;
  /** Stop the server (SIGTERM) and wait for it to exit. */
  stop(): Promise<void>;
  /** Stop it and remove its directory. */
  close(): Promise<void>;
}

const MISSING =
  'redis-server is not on PATH. The Redis rate-limit tests need a real Redis: install it ' +
  '(Debian/Ubuntu: `apt-get update && apt-get install -y redis-server`; macOS: `brew install redis`). ' +
  'CI installs it in .ci/run.';

export async function startRedis(): Promise<RunningRedis> {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) throw new Error(MISSING);

  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'v1gate-redis-'));
  let child: ChildProcess | undefined;
  let log = '';

  const start = async () => {
    if (child) return;
    const started = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--protected-mode', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = started;
    started.stdout?.on('data', (d: Buffer) => (log += d.toString()));
    started.stderr?.on('data', (d: Buffer) => (log += d.toString()));
    started.on('exit', () => {
      if (child === started) child = undefined;
    });
    const deadline = Date.now() + 10_000;
    while (!(await answersPing(port))) {
      if (!child) throw new Error(`redis-server exited at start:\n${log}`);
      if (Date.now() > deadline) throw new Error(`redis-server did not answer PING on port ${port} within 10 s:\n${log}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  const stop = async () => {
    const running = child;
    if (!running) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill('SIGTERM');
    const timer = setTimeout(() => running.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    stop,
    close: async () => {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A port nobody listens on right now: let the OS pick one, then give it back. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** One raw RESP PING, so waiting for the server needs no client library. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => done(d.toString().startsWith('+PONG')));
  });
}
