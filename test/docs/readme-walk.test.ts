import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A newcomer's walk through the README, as written: `npm start`, then the shell blocks of the quick
 * start and of "Try v1 and v2 on the same data", run by bash with only the banner's key, secret and
 * port put in. Each `# ...` line under a command is the output the README promises for it. A README
 * edit that breaks a command, or a change that breaks what the README shows, fails here.
 * `--ignore-scripts` skips only the prestart build, which the suite's setup has done already.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = readFileSync(`${ROOT}README.md`, 'utf8');
const KEY = 'readmeWalkKey';
const SECRET = 'readmeWalkSecret0123456789';
const run = promisify(execFile);

/** The fenced `sh` blocks of the README section under `heading`. */
function shellBlocks(heading: string): string[] {
  const start = README.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`the README has no section "${heading}"`);
  const next = README.slice(start + heading.length + 2).search(/\n#{2,3} /);
  const section = README.slice(start, next < 0 ? undefined : start + heading.length + 2 + next);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

/** Each command of a block with the output lines (`# ...`) the README shows under it. */
function commandsWithOutput(block: string): { command: string; output: string }[] {
  const pairs: { command: string; output: string }[] = [];
  for (const line of block.split('\n').filter(Boolean)) {
    if (line.startsWith('# ')) pairs.at(-1)!.output += `${pairs.at(-1)!.output ? '\n' : ''}${line.slice(2)}`;
    else pairs.push({ command: line, output: '' });
  }
  return pairs;
}

let npm: ChildProcess | undefined;
let port = '';

const asWritten = (script: string) =>
  script.replaceAll('KEY', KEY).replaceAll('SECRET', SECRET).replaceAll('127.0.0.1:8080', `127.0.0.1:${port}`);
const bash = async (script: string) =>
  (await run('bash', ['-euo', 'pipefail', '-c', asWritten(script)], { cwd: ROOT, env: { ...process.env, PORT: port } })).stdout;

beforeAll(async () => {
  npm = spawn('npm', ['start', '--ignore-scripts', '--silent'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', SANDBOX_API_KEY: KEY, SANDBOX_API_SECRET: SECRET },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not start the gateway in 30 s:\n${output}`)), 30_000);
    npm!.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /v1gate listening on http:\/\/127\.0\.0\.1:(\d+)\/v1 \(pid \d+\)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
  });
});

afterAll(async () => {
  if (!npm || npm.exitCode !== null) return;
  const exited = new Promise((resolve) => npm!.once('exit', resolve));
  npm.kill('SIGTERM');
  await exited;
});

describe('the README, walked as a newcomer walks it', () => {
  it('starts with `npm ci && npm start`', () => {
    expect(shellBlocks('## Quick start')[0]!.trim()).toBe('npm ci && npm start');
  });

  it('answers each quick-start call with the output the README prints under it', async () => {
    const calls = shellBlocks('## Quick start').slice(1).flatMap(commandsWithOutput);
    expect(calls.length).toBeGreaterThanOrEqual(2);
    for (const { command, output } of calls) {
      expect(output, `the README shows no output for: ${command}`).not.toBe('');
      expect((await bash(command)).trim(), command).toBe(output);
    }
  });

  it('creates a meeting the v1 way and reads it the v2 way, with v1 defaults in its settings', async () => {
    const [block] = shellBlocks('### Try v1 and v2 on the same data');
    const meeting = JSON.parse(await bash(block!)) as { topic: string; settings: { host_video: boolean; participant_video: boolean } };
    expect(meeting.topic).toBe('Standup');
    expect(meeting.settings).toMatchObject({ host_video: true, participant_video: true });
  });
});
