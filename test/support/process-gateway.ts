import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * A gateway in its own OS process, started the way `npm start` starts it (tsx src/main.ts), for
 * tests that need several real gateway processes (shared limits through Redis).
 */
export interface GatewayProcess {
  url: string;
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
const TSX = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));

export interface GatewayProcessOptions {
  /**
   * Run the gateway as node itself (`node --import tsx src/main.ts`) instead of under the tsx
   * CLI. The CLI is a parent process: a SIGKILL ends it and leaves the gateway running as an
   * orphan, so crash tests that must really kill the gateway ask for this.
   */
  direct?: boolean;
}

export async function startGatewayProcess(env: Record<string, string>, options: GatewayProcessOptions = {}): Promise<GatewayProcess> {
  const [command, args] = options.direct ? [process.execPath, ['--import', 'tsx', 'src/main.ts']] : [TSX, ['src/main.ts']];
  const child: ChildProcess = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway process did not start in 20 s:\n${output}`)), 20_000);
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
