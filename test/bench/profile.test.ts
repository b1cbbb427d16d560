import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { areaOf, busyShareByArea, readProfile } from '../../bench/profile-areas.js';
import { REPO_ROOT } from '../../bench/procs.js';

const run = promisify(execFile);
const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0 });

describe('profile areas', () => {
  it("names where a sample's code lives: v1gate's layer, the package, Node's module, the kernel's writes", () => {
    expect(areaOf(frame('handle', 'file:///x/bench/out/dist/src/translators/users/check.js'))).toBe('v1gate translators');
    expect(areaOf(frame('createServer', 'file:///x/bench/out/dist/src/server.js'))).toBe('v1gate (top level)');
    expect(areaOf(frame('request', 'file:///x/node_modules/undici/lib/api/api-request.js'))).toBe('npm undici');
    expect(areaOf(frame('x', 'file:///x/node_modules/@hono/node-server/dist/index.mjs'))).toBe('npm @hono/node-server');
    expect(areaOf(frame('x', 'file:///x/node_modules/pino/node_modules/sonic-boom/index.js'))).toBe('npm sonic-boom');
    expect(areaOf(frame('emit', 'node:events'))).toBe('node events');
    expect(areaOf(frame('writevGeneric', 'node:internal/stream_base_commons'))).toBe('node internal/stream_base_commons');
    expect(areaOf(frame('writev', ''))).toBe('socket writes (native, mostly the kernel)');
    expect(areaOf(frame('(garbage collector)', ''))).toBe('(garbage collector)');
  });
});

describe('npm run bench:profile', () => {
  it("profiles a window of steady load on each side and prints each area's µs per call", { timeout: 240_000 }, async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'bench/profile.ts', '--case', 'checkemail', '--rate', '200', '--duration', '1', '--warmup-calls', '50'],
      { cwd: REPO_ROOT, timeout: 230_000, maxBuffer: 16 * 1024 * 1024 },
    );
    const lines = stdout.split('\n');
    const files = lines.map((line) => /profile (\S+\.cpuprofile)$/.exec(line)?.[1]).filter((file) => file !== undefined);
    expect(files, stdout).toHaveLength(2);
    for (const file of files) {
      expect(existsSync(file)).toBe(true);
      // Only the window was profiled, and it was busy with calls: v1gate's own code or the floor's shows up.
      const shares = busyShareByArea(readProfile(file));
      expect([...shares.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
    }
    expect(
      lines.some((line) => line.startsWith('| v1gate v1-facade | 0.0 |')),
      stdout,
    ).toBe(true);
    const total = lines.find((line) => line.startsWith('| **all** |'));
    expect(total, stdout).toBeDefined();
    const [, , floor, v1gate] = total!.split('|').map((cell) => Number(cell.replace(/\*/g, '').trim()));
    expect(floor).toBeGreaterThan(0);
    expect(v1gate).toBeGreaterThan(0);
  });
});
