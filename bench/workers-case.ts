import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ceilingOf, cpuShareOf, type CpuShare } from './cpu-ceiling.js';
import { API_KEY, API_SECRET, distinctForms, median, warmUp } from './harness.js';
import { runLoad, type LoadResult } from './load.js';
import { childrenOf, startCpuMeter } from './proc-cpu.js';
import { REPO_ROOT, startChild } from './procs.js';
import type { Seeded } from './seed.js';

/**
 * One gateway process against several (`WORKERS=N`, node:cluster), the same `/v1/meeting/get` load
 * (every request the same call, then every request its own meeting) over the fixed upstream, started as `npm start` runs v1gate (compiled,
 * bench/out/dist/src/main.js). req/s and CPU µs per call are summed over every process of the
 * gateway (the primary and its workers), read from /proc before and after each run: the harness's
 * own CPU reading (over IPC from one process) would miss the workers. The same readings take
 * what everything else on the machine spent over the run (the load generator in this process, the
 * upstream, other work: proc-cpu.ts), and from the two each row's ceiling on "× one process" on
 * these cores (cpu-ceiling.ts). Used by `npm run bench` (cases `workers` and `workers-redis`) and
 * by `npm run bench:workers`.
 */

export type WorkersLimiter = 'off' | 'memory' | 'redis';

/**
 * `same`: every request the same call, so identical GETs in flight are sent once (each process
 * shares only among its own calls); `distinct`: every request its own meeting id, one v2 call each.
 */
export type WorkersMix = 'same' | 'distinct';

export interface WorkersOptions {
  /** Process counts to compare, e.g. [1, 2]. */
  counts: number[];
  /** Request mixes to run each count under (default both). */
  mixes?: WorkersMix[];
  limiter: WorkersLimiter;
  /** Required with limiter 'redis'. */
  redisUrl?: string;
  durationSec: number;
  /** Length of each warm-up run (s); they repeat until `warmupCalls` per process were answered (harness.ts warmUp). */
  warmupSec: number;
  /**
   * Calls each gateway process answers before it is measured (default 10 000, as the other cases):
   * every worker compiles its own hot code, and after 2 s two workers had each answered half the
   * calls of one process and still spent 2-3x its CPU per call.
   */
  warmupCalls?: number;
  connections: number;
  /**
   * Runs of each count per mix (default 1), in alternated order (1 2, 2 1, ...): on a shared
   * machine one run of each, a minute apart, can differ by 3x; the table shows medians, and the
   * ratio as the median of each round's own.
   */
  rounds?: number;
  log?: (line: string) => void;
}

export interface WorkersRow {
  workers: number;
  /** Which round of the alternation (from 0). */
  round: number;
  mix: WorkersMix;
  limiter: WorkersLimiter;
  /** Gateway processes measured (with WORKERS>1: the primary and its workers). */
  processes: number;
  load: LoadResult;
  /** CPU of every gateway process over the run ÷ calls answered. */
  cpuUsPerCall: number;
  /**
   * The same, process by process (their sum is cpuUsPerCall): the one process, or the primary (its
   * buckets and the leases it hands out) and then each worker.
   */
  cpuUsPerCallByProcess: number[];
  /** The run's CPU per call: the gateway's (cpuUsPerCall, from the same readings) and the rest's, and the machine's idle share. */
  cpu: CpuShare;
  /**
   * The part of cpuUsPerCall the gateway processes' main threads spent, where their JavaScript runs:
   * the rest is their helper threads' (garbage collection, compilation), which is how one process can
   * spend more than one core.
   */
  mainThreadsUsPerCall: number;
  /** The largest count compared: what `ceiling` is for. */
  ceilingFor: number;
  /**
   * The most `ceilingFor` processes could serve over one on this machine's cores, at this run's CPU
   * per call, one process capped by its main thread (cpu-ceiling.ts).
   */
  ceiling: number;
  /** The same without the other work on the machine: what this bench's own parts (the generator and the upstream beside the gateway) leave. */
  ceilingWithoutOther: number;
}

interface Gateway {
  url: string;
  pids(): number[];
  stop(): Promise<void>;
}

async function startGateway(workers: number, v2BaseUrl: string, options: WorkersOptions): Promise<Gateway> {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    NODE_ENV: 'production',
    PORT: '0',
    V2_BASE_URL: v2BaseUrl,
    V1_KEEP_ALIVE: 'on',
    LOG_LEVEL: 'silent',
    V1_RATE_LIMITS: options.limiter === 'off' ? 'off' : 'on',
    V2_RATE_LIMITS: options.limiter === 'off' ? 'off' : 'on',
    // The limiters do all their work (with WORKERS>1, leases from the primary over IPC in memory
    // mode, from Redis' Lua scripts with Redis) but never refuse.
    RATE_LIMIT_SCALE: '1000000',
  };
  if (options.limiter === 'redis') env.REDIS_URL = options.redisUrl!;
  else delete env.REDIS_URL;
  if (workers > 1) env.WORKERS = String(workers);
  else delete env.WORKERS;
  const child: ChildProcess = spawn(process.execPath, ['bench/out/dist/src/main.js'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      output += d.toString();
      const match = /v1gate listening on (http:\/\/\S+)\/v1/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`gateway exited (${code}):\n${output}`)));
  });
  return {
    url,
    pids: () => [child.pid!, ...childrenOf(child.pid!)],
    stop: () =>
      new Promise<void>((resolve) => {
        child.removeAllListeners('exit');
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function measure(
  workers: number,
  mix: WorkersMix,
  round: number,
  v2BaseUrl: string,
  seeded: Seeded,
  options: WorkersOptions,
): Promise<WorkersRow> {
  const gateway = await startGateway(workers, v2BaseUrl, options);
  try {
    const fields = { api_key: API_KEY, api_secret: API_SECRET, id: seeded.meetingId, host_id: seeded.userId };
    // The fixed upstream answers any meeting id with the captured meeting.
    const body =
      mix === 'same' ? new URLSearchParams(fields).toString() : distinctForms(fields, (n) => ({ id: String(90_000_000_000 + n) }));
    const run = (durationSec: number) =>
      runLoad({ url: gateway.url, path: '/v1/meeting/get', body, connections: options.connections, durationSec });
    await warmUp(() => run(options.warmupSec), (options.warmupCalls ?? 10_000) * workers);
    const pids = gateway.pids();
    const meter = startCpuMeter(pids);
    const result = await run(options.durationSec);
    const { sample, gatewayUsByProcess, gatewayMainThreadsUs } = meter.stop(result.total);
    const cpu = cpuShareOf(sample);
    const ceilingFor = Math.max(...options.counts);
    return {
      workers,
      round,
      mix,
      limiter: options.limiter,
      processes: pids.length,
      load: result,
      cpuUsPerCall: cpu.gatewayUsPerCall,
      cpuUsPerCallByProcess: gatewayUsByProcess.map((us) => us / result.total),
      cpu,
      mainThreadsUsPerCall: gatewayMainThreadsUs / result.total,
      ceilingFor,
      ceiling: ceilingOf(ceilingFor, sample.cores, cpu.gatewayUsPerCall, cpu.restUsPerCall, gatewayMainThreadsUs / result.total),
      ceilingWithoutOther: ceilingOf(
        ceilingFor,
        sample.cores,
        cpu.gatewayUsPerCall,
        cpu.generatorUsPerCall + cpu.upstreamUsPerCall,
        gatewayMainThreadsUs / result.total,
      ),
    };
  } finally {
    await gateway.stop();
  }
}

/** Measure each process count in turn over one fixed upstream. The servers must be compiled (procs.ts buildServers). */
export async function runWorkers(options: WorkersOptions): Promise<WorkersRow[]> {
  const upstream = await startChild('fixed upstream', './fixed-upstream.ts', { PORT: '0' });
  const seeded = (JSON.parse(readFileSync(new URL('./fixtures/v2-answers.json', import.meta.url), 'utf8')) as { seeded: Seeded }).seeded;
  const v2 = `http://127.0.0.1:${upstream.ready.port}/v2`;
  const rows: WorkersRow[] = [];
  try {
    for (const mix of options.mixes ?? (['same', 'distinct'] as const))
      for (let round = 0; round < (options.rounds ?? 1); round++)
        for (const workers of round % 2 === 0 ? options.counts : [...options.counts].reverse()) {
          const row = await measure(workers, mix, round, v2, seeded, options);
          rows.push(row);
          options.log?.(
            `  WORKERS=${workers} (limiter ${options.limiter}, ${mix} calls): ${row.load.rps.toFixed(0)} req/s, ${row.cpuUsPerCall.toFixed(0)} µs CPU per call over ${row.processes} process(es) (${byProcessText(row)}), p99 ${row.load.p99.toFixed(2)} ms, problems ${problemsOf(row)}\n    ${cpuText(row)}`,
          );
        }
  } finally {
    await upstream.stop();
  }
  return rows;
}

export function problemsOf(row: WorkersRow): number {
  return row.load.errors + row.load.timeouts + row.load.non2xx + row.load.envelopeErrors;
}

/**
 * The rows as a markdown table, one line per limiter, mix and count: medians over the rounds, and
 * req/s relative to the first count of the same limiter, mix and round (the median of those ratios).
 */
export function renderWorkers(rows: WorkersRow[]): string {
  const groups = new Map<string, WorkersRow[]>();
  for (const r of rows) {
    const key = `${r.limiter} ${r.mix} ${r.workers}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const firstCount = new Map<string, number>();
  for (const r of rows) if (!firstCount.has(`${r.limiter} ${r.mix}`)) firstCount.set(`${r.limiter} ${r.mix}`, r.workers);
  const baseOf = (r: WorkersRow) =>
    rows.find(
      (b) => b.limiter === r.limiter && b.mix === r.mix && b.round === r.round && b.workers === firstCount.get(`${r.limiter} ${r.mix}`),
    );
  return [
    "| WORKERS | limiter | calls | processes | req/s (every run) | × one process | ceiling: most × one process at this run's CPU | CPU µs per call (all processes) | by process: primary / each worker | rest µs per call (generator / upstream / other) | machine idle | p50 ms | p99 ms | problems |",
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...[...groups.values()].map((runs) => {
      const r = runs[0]!;
      const ratios = runs.flatMap((run) => {
        const base = baseOf(run);
        return base ? [run.load.rps / base.load.rps] : [];
      });
      const byProcess = r.cpuUsPerCallByProcess.map((_, i) => median(runs.map((run) => run.cpuUsPerCallByProcess[i] ?? 0)));
      const rps =
        runs.length > 1
          ? `${median(runs.map((run) => run.load.rps)).toFixed(0)} (${runs.map((run) => run.load.rps.toFixed(0)).join(', ')})`
          : r.load.rps.toFixed(0);
      const cells = [
        r.workers,
        r.limiter,
        r.mix === 'same' ? 'all the same' : 'each its own meeting',
        r.processes,
        rps,
        `${median(ratios).toFixed(2)}x`,
        `${median(runs.map((run) => run.ceiling)).toFixed(2)}x for ${r.ceilingFor} (${median(runs.map((run) => run.ceilingWithoutOther)).toFixed(2)}x without other work)`,
        median(runs.map((run) => run.cpuUsPerCall)).toFixed(0),
        byProcess.map((us) => us.toFixed(0)).join(' / '),
        restText(runs),
        `${(median(runs.map((run) => run.cpu.idleShare)) * 100).toFixed(0)}%`,
        median(runs.map((run) => run.load.p50)).toFixed(2),
        median(runs.map((run) => run.load.p99)).toFixed(2),
        runs.reduce((n, run) => n + problemsOf(run), 0),
      ];
      return `| ${cells.join(' | ')} |`;
    }),
  ].join('\n');
}

/** Each process's CPU µs per call, the primary first: `12 / 140 / 138`; the one process's alone when there are no workers. */
function byProcessText(row: WorkersRow): string {
  return row.cpuUsPerCallByProcess.map((us) => us.toFixed(0)).join(' / ');
}

/** The rest's CPU per call and its parts, medians over the runs: `190 (60 / 40 / 90)`. */
function restText(runs: readonly WorkersRow[]): string {
  const of = (part: (cpu: CpuShare) => number) => median(runs.map((run) => part(run.cpu))).toFixed(0);
  return `${of((c) => c.restUsPerCall)} (${of((c) => c.generatorUsPerCall)} / ${of((c) => c.upstreamUsPerCall)} / ${of((c) => c.otherUsPerCall)})`;
}

/** One run's gateway against the rest, per call, and the ceiling they leave on these cores. */
function cpuText(row: WorkersRow): string {
  const { cpu } = row;
  return (
    `CPU per call: gateway ${cpu.gatewayUsPerCall.toFixed(0)} µs (main threads ${row.mainThreadsUsPerCall.toFixed(0)}), rest ${cpu.restUsPerCall.toFixed(0)} µs (generator ${cpu.generatorUsPerCall.toFixed(0)}, ` +
    `upstream ${cpu.upstreamUsPerCall.toFixed(0)}, other ${cpu.otherUsPerCall.toFixed(0)}); machine idle ${(cpu.idleShare * 100).toFixed(0)}%; ` +
    `ceiling for WORKERS=${row.ceilingFor}: ${row.ceiling.toFixed(2)}x one process (${row.ceilingWithoutOther.toFixed(2)}x without other work)`
  );
}
