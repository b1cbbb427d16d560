import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The gateway's log destination on a piped standard output (src/ops/log-destination.ts: 4 KiB
 * batches written asynchronously) loses no line when the process leaves at once: pino writes out
 * the batch on exit, and after a fatal line before anything else can happen. The child writes
 * more lines than one batch and leaves before any asynchronous write could complete.
 */

const CHILD = fileURLToPath(new URL('./fixtures/log-flush-child.ts', import.meta.url));
const PAIRS = 150;

/** The child's standard output, once it has ended. */
function outputOf(how: 'exit' | 'fatal'): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, how, String(PAIRS)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return new Promise((resolve) => child.once('close', () => resolve(output)));
}

type Line = { msg: string; reqId?: string; after?: number; level: number; params?: { email: string } };

function expectEveryLine(output: string): Line[] {
  const lines = output
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Line);
  for (let i = 0; i < PAIRS; i++) {
    expect(lines[2 * i]).toMatchObject({ msg: 'v1 call', reqId: `req-${i}`, params: { email: `é☃😀-${i}@example.com` } });
    expect(lines[2 * i + 1]).toMatchObject({ msg: 'between calls', after: i });
  }
  return lines.slice(2 * PAIRS);
}

describe('log lines of a process that leaves at once', () => {
  it('are all written, in order, when it exits', async () => {
    expect(expectEveryLine(await outputOf('exit'))).toEqual([]);
  });

  it('are all written, in order and the fatal line last, when it is killed right after a fatal line', async () => {
    expect(expectEveryLine(await outputOf('fatal'))).toMatchObject([{ msg: 'last words', level: 60 }]);
  });
});
