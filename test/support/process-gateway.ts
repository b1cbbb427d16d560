import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { NO_LIMITS } from './v1-answers.js';

/**
 * A gateway in its own OS process, run as `npm start` runs it (`node dist/src/main.js`, built by
 * the suite's global setup), for tests that need several real gateway processes (shared limits
 * through Redis), signals or a crash.
 */
export interface GatewayProcess {
  url: string;
  /** The process id (memory tests read its /proc entry). */
  pid: number;
  output(): string;
  stop(): Promise<void>;
  /** SIGKILL: no shutdown code runs (crash tests). */
  kill(): Promise<void>;
  /** Send a signal and return at once (shutdown tests watch what follows). */
  signal(name: NodeJS.Signals): void;
  /** Called with the exit code when the process exits. */
  onExit(listener: (code: number | null) => void): void;
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The gateway runs as node itself on the compiled entry point, with no wrapper process between: a
 * wrapper such as the tsx CLI would take the SIGKILL and leave the gateway running as an orphan,
 * and a crash or shutdown test would not be testing the gateway at all.
 */
export async function startGatewayProcess(env: Record<string, string>, options: { startTimeoutMs?: number } = {}): Promise<GatewayProcess> {
  // WORKERS>1 starts several processes: give them longer.
  const startTimeoutMs = options.startTimeoutMs ?? 20_000;
  const child: ChildProcess = spawn(process.execPath, ['dist/src/main.js'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway process did not start in ${startTimeoutMs} ms:\n${output}`)), startTimeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /v1gate listening on (http:\/\/\S+)\/v1/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`gateway process exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    pid: child.pid!,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
    signal: (name) => {
      child.kill(name);
    },
    onExit: (listener) => {
      if (child.exitCode !== null || child.signalCode !== null) listener(child.exitCode);
      else child.once('exit', (code) => listener(code));
    },
    kill: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.removeAllListeners('exit');
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

/** A cluster of two workers over the embedded sandbox whose master pair is `pair`, no limit on either side: how the cluster tests start. */
export function twoWorkersOverSandbox(pair: { key: string; secret: string }): Record<string, string> {
  return { ...NO_LIMITS, WORKERS: '2', SANDBOX_RATE_LIMITS: 'off', SANDBOX_API_KEY: pair.key, SANDBOX_API_SECRET: pair.secret };
}
