import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOG_DIR_ENV, auditLogFolder } from './log-audit.js';
import { TRAFFIC_LOG_ENV, checkTraffic, describeProblem, readTraffic } from './today-traffic.js';

/**
 * Runs once around the whole suite: builds the gateway as `npm start` runs it (`dist/`, for the
 * tests that run it as its own process), gives every test gateway one log folder, and after the
 * last test proves that no line any gateway wrote carries a secret (the redaction check). Every
 * sandbox of the run appends its v2 traffic to one folder too (SANDBOX_TRAFFIC_LOG), checked after
 * the last test against today's documents (`today-traffic.ts`).
 */
export default function setup(): () => void {
  // Each vitest project runs the global setup in the same process: the first makes the folder that
  // every test worker of every project logs to, and audits it; the others leave it alone.
  if (process.env[LOG_DIR_ENV]) return () => {};
  buildDist();
  const dir = mkdtempSync(join(tmpdir(), 'v1gate-logs-'));
  process.env[LOG_DIR_ENV] = dir;
  const traffic = mkdtempSync(join(tmpdir(), 'v1gate-v2-traffic-'));
  process.env[TRAFFIC_LOG_ENV] = traffic;
  return () => {
    const { lines, problems } = auditLogFolder(dir);
    rmSync(dir, { recursive: true, force: true });
    delete process.env[LOG_DIR_ENV];
    const failures = [checkTodayTraffic(traffic)];
    if (problems.length > 0) {
      failures.push(`log redaction: ${problems.length} problem(s) in ${lines} log lines:\n${problems.slice(0, 20).join('\n')}`);
    } else {
      console.log(`log redaction: ${lines} log lines written by the suite's gateways, none carries a secret`);
    }
    const failed = failures.filter((failure) => failure !== undefined);
    if (failed.length > 0) failRun(failed.join('\n\n'));
  };
}

/**
 * Fails the whole run from the teardown. Vitest prints an error thrown here ("error during close")
 * but has already settled the exit code by then, so a failed check would leave `npm test` green:
 * the exit code is set here, and the error thrown for vitest to print.
 */
function failRun(message: string): never {
  process.exitCode = 1;
  throw new Error(message);
}

/**
 * The run's v2 exchanges against today's documents: a message naming every difference no row of
 * TODAY_DIFFERENCES explains, or undefined. The folder is removed unless V2_TRAFFIC_KEEP is set
 * (to read the exchanges behind a difference).
 */
function checkTodayTraffic(folder: string): string | undefined {
  const verdict = checkTraffic(readTraffic(folder));
  if (!process.env.V2_TRAFFIC_KEEP) rmSync(folder, { recursive: true, force: true });
  else console.log(`v2 traffic kept in ${folder}`);
  delete process.env[TRAFFIC_LOG_ENV];
  const explained = [...verdict.explainedBy.values()].reduce((a, b) => a + b, 0);
  const summary = `${verdict.exchanges} v2 exchanges (${verdict.fromGateway} sent by v1gate), ${explained} difference(s) explained by ${verdict.explainedBy.size} row(s) of TODAY_DIFFERENCES`;
  if (verdict.unexplained.length === 0) {
    console.log(`today's documents: ${summary}, none unexplained`);
    return undefined;
  }
  const listed = verdict.unexplained.map((p) => describeProblem(p)).sort();
  return `today's documents: ${summary}; ${listed.length} not in the table:\n${listed.join('\n')}`;
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
