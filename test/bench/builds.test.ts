import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../bench/procs.js';

const run = promisify(execFile);

describe('npm run bench:builds', () => {
  it('compares this checkout with another revision and prints a row per case', { timeout: 240_000 }, async () => {
    const { stdout } = await run(
      process.execPath,
      [
        '--import',
        'tsx',
        'bench/builds.ts',
        '--base',
        'HEAD',
        '--cases',
        'checkemail',
        '--rate',
        '100',
        '--rounds',
        '1',
        '--duration',
        '1',
        '--warmup-calls',
        '50',
      ],
      { cwd: REPO_ROOT, timeout: 230_000, maxBuffer: 16 * 1024 * 1024 },
    );
    const row = stdout
      .split('\n')
      .reverse()
      .find((line) => line.startsWith('| checkemail |'));
    expect(row, stdout).toBeDefined();
    const [, , base, current, ratio, , rate, problems] = row!.split('|').map((cell) => cell.trim());
    expect(Number(base)).toBeGreaterThan(0);
    expect(Number(current)).toBeGreaterThan(0);
    expect(ratio).toMatch(/^\*\*\d+\.\d{3}\*\*$/);
    expect(rate).toBe('held');
    expect(problems).toBe('0');
  });
});
