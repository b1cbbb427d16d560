import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { API_KEY, API_SECRET } from './harness.js';
import { runLoad, type LoadResult } from './load.js';
import { REPO_ROOT, buildServers, startChild } from './procs.js';
import type { Seeded } from './seed.js';

/**
 * `npx tsx bench/workers.ts [--workers N] [--duration S] [--connections C] [--limiter off|memory]`:
 * one gateway process (WORKERS unset) against N workers (WORKERS=N, default: the number of cores),
 * the same v1 call over the fixed upstream. Reports req/s and CPU µs per call summed over every
 * process of the gateway (the primary and its workers), read from /proc before and after each run.
 * Gateway started as `npm start` runs it (compiled, bench/out/dist/src/main.js).
 */

const { values } = parseArgs({
  options: {
    workers: { type: 'string' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '32' },
    limiter: { type: 'string', default: 'memory' },
  },
});
const N = Number(values.workers ?? availableParallelism());
const DURATION = Number(values.duration);
const CLOCK_TICKS = 100; // USER_HZ on Linux

interface Gateway {
  url: string;
  pids(): number[];
  stop(): Promise<void>;
}

async function startGateway(workers: number, v2BaseUrl: string): Promise<Gateway> {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    NODE_ENV: 'production',
    PORT: '0',
    V2_BASE_URL: v2BaseUrl,
    V1_KEEP_ALIVE: 'on',
    LOG_LEVEL: 'silent',
    V1_RATE_LIMITS: values.limiter === 'off' ? 'off' : 'on',
    V2_RATE_LIMITS: values.limiter === 'off' ? 'off' : 'on',
    // The limiters do all their work (here: an IPC round trip per take with WORKERS>1) but never refuse.
    RATE_LIMIT_SCALE: '1000000',
  };
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
  const workerPids = () => [...output.matchAll(/started \(pid (\d+)\)/g)].map((m) => Number(m[1]));
  return {
    url,
    pids: () => [child.pid!, ...workerPids()],
    stop: () =>
      new Promise<void>((resolve) => {
        child.removeAllListeners('exit');
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** user+system CPU seconds of these processes, from /proc/<pid>/stat (fields 14 and 15). */
function cpuSeconds(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // exited
    }
  }
  return ticks / CLOCK_TICKS;
}

interface Row {
  workers: number;
  processes: number;
  load: LoadResult;
  cpuUsPerCall: number;
}

async function measure(workers: number, v2BaseUrl: string, seeded: Seeded): Promise<Row> {
  const gateway = await startGateway(workers, v2BaseUrl);
  try {
    const form = new URLSearchParams({ api_key: API_KEY, api_secret: API_SECRET, id: seeded.meetingId, host_id: seeded.userId }).toString();
    const load = (durationSec: number) =>
      runLoad({ url: gateway.url, path: '/v1/meeting/get', body: form, connections: Number(values.connections), durationSec });
    await load(Number(values.warmup));
    const pids = gateway.pids();
    const before = cpuSeconds(pids);
    const result = await load(DURATION);
    const cpu = cpuSeconds(pids) - before;
    const answered = result.total;
    return { workers, processes: pids.length, load: result, cpuUsPerCall: (cpu * 1e6) / answered };
  } finally {
    await gateway.stop();
  }
}

buildServers();
const upstream = await startChild('fixed upstream', './fixed-upstream.ts', { PORT: '0' });
const seeded = (JSON.parse(readFileSync(new URL('./fixtures/v2-answers.json', import.meta.url), 'utf8')) as { seeded: Seeded }).seeded;
const v2 = `http://127.0.0.1:${upstream.ready.port}/v2`;
const loadStart = loadavg()[0] ?? 0;
const rows: Row[] = [];
try {
  for (const workers of [1, N]) {
    const row = await measure(workers, v2, seeded);
    rows.push(row);
    console.log(
      `WORKERS=${workers}: ${row.load.rps.toFixed(0)} req/s, ${row.cpuUsPerCall.toFixed(0)} µs CPU per call over ${row.processes} process(es), p99 ${row.load.p99.toFixed(2)} ms, problems ${row.load.errors + row.load.timeouts + row.load.non2xx + row.load.envelopeErrors}`,
    );
  }
} finally {
  await upstream.stop();
}
console.log(
  `\nmachine: ${cpus()[0]?.model ?? 'unknown'}, ${cpus().length} cores; load average ${loadStart.toFixed(1)} at the start, ${(loadavg()[0] ?? 0).toFixed(1)} at the end`,
);
console.log(`command: npx tsx bench/workers.ts ${process.argv.slice(2).join(' ')}`.trim());
console.log(
  '\n| WORKERS | processes | req/s | CPU µs per call (all processes) | p50 ms | p99 ms | problems |\n|---|---|---|---|---|---|---|',
);
for (const r of rows) {
  const problems = r.load.errors + r.load.timeouts + r.load.non2xx + r.load.envelopeErrors;
  console.log(
    `| ${r.workers} | ${r.processes} | ${r.load.rps.toFixed(0)} | ${r.cpuUsPerCall.toFixed(0)} | ${r.load.p50.toFixed(2)} | ${r.load.p99.toFixed(2)} | ${problems} |`,
  );
}
