import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Each server of the benchmark runs in its own Node process (forked with an IPC channel, TypeScript
 * through tsx, --expose-gc so memory can be read after a full GC). The runner's own process is the
 * load generator.
 */

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface Child {
  name: string;
  proc: ChildProcess;
  /** What the child sent with `{ type: 'ready' }`. */
  ready: Record<string, any>;
  /** Send `{ type }` and wait for the child's answer of the same type. */
  ask(type: string, timeoutMs?: number): Promise<Record<string, any>>;
  stop(): Promise<void>;
}

export async function startChild(name: string, file: string, env: Record<string, string>, extraExecArgv: string[] = []): Promise<Child> {
  const proc = fork(fileURLToPath(new URL(file, import.meta.url)), [], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: 'production', ...env },
    execArgv: ['--import', 'tsx', '--expose-gc', ...extraExecArgv],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  proc.stdout?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  proc.stderr?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  const ready = await new Promise<Record<string, any>>((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`${name} did not start within 30 s:\n${output}`));
    }, 30_000);
    proc.on('message', function onReady(message: any) {
      if (message?.type !== 'ready') return;
      clearTimeout(timer);
      proc.off('message', onReady);
      resolve(message);
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (code ${code}) before it was ready:\n${output}`));
    });
  });
  const ask = (type: string, timeoutMs = 10_000) =>
    new Promise<Record<string, any>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} did not answer ${type}`)), timeoutMs);
      const onMessage = (message: any) => {
        if (message?.type !== type) return;
        clearTimeout(timer);
        proc.off('message', onMessage);
        resolve(message);
      };
      proc.on('message', onMessage);
      proc.send({ type });
    });
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.send({ type: 'stop' });
    const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  return { name, proc, ready, ask, stop };
}
