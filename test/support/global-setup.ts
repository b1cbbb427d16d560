import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOG_DIR_ENV, auditLogFolder } from './log-audit.js';

/**
 * Runs once around the whole suite: builds the gateway as `npm start` runs it (`dist/`, for the
 * tests that run it as its own process), gives every test gateway one log folder, and after the
 * last test proves that no line any gateway wrote carries a secret (the redaction check).
 */
export default function setup(): () => void {
  // Each vitest project runs the global setup in the same process: the first makes the folder that
  // every test worker of every project logs to, and audits it; the others leave it alone.
  if (process.env[LOG_DIR_ENV]) return () => {};
  buildDist();
  const dir = mkdtempSync(join(tmpdir(), 'v1gate-logs-'));
  process.env[LOG_DIR_ENV] = dir;
  return () => {
    const { lines, problems } = auditLogFolder(dir);
    rmSync(dir, { recursive: true, force: true });
    delete process.env[LOG_DIR_ENV];
    if (problems.length > 0) {
      throw new Error(`log redaction: ${problems.length} problem(s) in ${lines} log lines:\n${problems.slice(0, 20).join('\n')}`);
    }
    console.log(`log redaction: ${lines} log lines written by the suite's gateways, none carries a secret`);
  };
}

/**
 * The same build as `npm start`'s (tsconfig.build.json, type-checked separately by `npm test`), so
 * the process tests signal and kill exactly what an operator runs: `node dist/src/main.js`.
 */
function buildDist(): void {
  const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--noCheck'], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    stdio: 'inherit',
  });
}
