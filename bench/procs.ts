import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * Each server of the benchmark runs in its own Node process (forked with an IPC channel,
 * --expose-gc so memory can be read after a full GC). The runner's own process is the load
 * generator.
 *
 * The servers run as compiled JavaScript, as `npm start` runs the gateway: `buildServers()`
 * compiles them with tsc (bench/tsconfig.servers.json → bench/out/dist/), and every server — the
 * gateway AND the floor — is forked from there, so neither pays a loader the other does not.
 * `setRuntime('tsx')` (`npm run bench -- --tsx`) runs them all from the .ts sources under tsx
 * instead (what the benchmark did before `npm start` ran compiled code).
 */

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

export type Runtime = 'compiled' | 'tsx';
let runtime: Runtime = 'compiled';

export function setRuntime(value: Runtime): void {
  runtime = value;
}

export function currentRuntime(): Runtime {
  return runtime;
}

/** Compile the server processes (emit only, type-checking is `npm run typecheck`; incremental: a rebuild takes a few seconds). */
export function buildServers(): void {
  if (runtime !== 'compiled') return;
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', fileURLToPath(new URL('./tsconfig.servers.json', import.meta.url)), '--noCheck'], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
}

/** `./floor.ts` → the file to fork: the compiled one, or the source under tsx. */
function entryOf(file: string): { path: string; loader: string[] } {
  if (runtime === 'tsx') return { path: fileURLToPath(new URL(file, import.meta.url)), loader: ['--import', 'tsx'] };
  return {
    path: fileURLToPath(new URL(`./out/dist/bench/${file.replace(/^\.\//, '').replace(/\.ts$/, '.js')}`, import.meta.url)),
    loader: [],
  };
}

export interface Child {
  name: string;
  proc: ChildProcess;
  /** What the child sent with `{ type: 'ready' }`: servers name their port. */
  ready: { port: number } & Record<string, unknown>;
  /** Send `{ type }` and wait for the child's answer of the same type. */
  ask(type: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

export function startChild(name: string, file: string, env: Record<string, string>, extraExecArgv: string[] = []): Promise<Child> {
  const entry = entryOf(file);
  return startProcess(name, entry.path, env, [...entry.loader, ...extraExecArgv]);
}

/** A server process forked from the script at `path` (startChild: one of this checkout's servers; bench/builds.ts: another build's gateway). */
export async function startProcess(name: string, path: string, env: Record<string, string>, execArgv: string[] = []): Promise<Child> {
  const proc = fork(path, [], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: 'production', ...env },
    execArgv: ['--expose-gc', ...execArgv],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  proc.stdout?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  proc.stderr?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  const ready = await new Promise<{ port: number } & Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`${name} did not start within 30 s:\n${output}`));
    }, 30_000);
    proc.on('message', function onReady(message: { type?: string } & Record<string, unknown>) {
      if (message?.type !== 'ready') return;
      clearTimeout(timer);
      proc.off('message', onReady);
      resolve(message as { port: number } & Record<string, unknown>);
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (code ${code}) before it was ready:\n${output}`));
    });
  });
  const ask = (type: string, timeoutMs = 10_000) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} did not answer ${type}`)), timeoutMs);
      const onMessage = (message: { type?: string } & Record<string, unknown>) => {
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
