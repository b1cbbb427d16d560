import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { runBench, machine, type BenchOptions } from './harness.js';
import { runSoak } from './soak.js';
import { buildServers, currentRuntime, setRuntime } from './procs.js';
import { runQuota } from './quota.js';
import { machineLines, renderQuota, renderSoak, renderTable, replaceSection } from './report.js';
import { renderWorkers, runWorkers, type WorkersRow } from './workers-case.js';

/**
 * `npm run bench` — the full side-by-side run (3 pairs × 5 s per case, then workers and the 2 × 60 s quota case, ~12 minutes), written to
 * bench/RESULTS.md (its table, workers and quota sections; the prose around them is kept).
 *   --quick            ~2 minutes: 1 pair × 1.5 s per case, quota 15 s per class (numbers are rough; for a smoke check)
 *   --soak             the 5-minute memory soak instead (--soak-seconds N to change its length)
 *   --only a,b         only these case ids (headline: checkemail-distinct, user-get-distinct, meeting-create, user-custcreate,
 *                      meeting-list-distinct, xml-distinct; coalescing: meeting-get, meeting-get-nocache, checkemail, user-get, xml;
 *                      limiter-memory, limiter-redis, keepalive-off, sandbox, workers, workers-redis, quota)
 *   --quota-seconds N  length of each run of the quota case (default 60; --quick: 15)
 *   --profile          start the gateway with --cpu-prof into bench/out/profiles/
 *   --pairs N --duration S --connections C --half-connections C   override the mode's settings
 *   --warmup-calls N   each side warms up until it answered N calls (default 10 000, --quick: none; at most 30 s)
 *   --no-write         print the table, leave bench/RESULTS.md alone
 *   --tsx              run every server from its .ts source under tsx (default: compiled with tsc
 *                      into bench/out/dist/ first, as `npm start` runs the gateway)
 * Raw results (every run) go to bench/out/ (git-ignored).
 */

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    soak: { type: 'boolean', default: false },
    'soak-seconds': { type: 'string' },
    'quota-seconds': { type: 'string' },
    only: { type: 'string' },
    profile: { type: 'boolean', default: false },
    pairs: { type: 'string' },
    duration: { type: 'string' },
    connections: { type: 'string' },
    'half-connections': { type: 'string' },
    'warmup-calls': { type: 'string' },
    'no-write': { type: 'boolean', default: false },
    tsx: { type: 'boolean', default: false },
  },
});

const OUT = new URL('./out/', import.meta.url);
const RESULTS = new URL('./RESULTS.md', import.meta.url);
const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
const log = (line: string) => console.log(line);
const num = (text: string | undefined, fallback: number) => (text === undefined ? fallback : Number(text));

await mkdir(new URL('./profiles/', OUT), { recursive: true });
if (values.tsx) setRuntime('tsx');
log(
  currentRuntime() === 'compiled' ? 'compiling the servers (bench/tsconfig.servers.json → bench/out/dist/) ...' : 'servers run under tsx',
);
buildServers();
const stamp = new Date().toISOString().replace(/[:.]/g, '-');

async function writeSection(name: string, content: string): Promise<void> {
  if (values['no-write']) return;
  const doc = await readFile(RESULTS, 'utf8').catch(() => '# v1gate benchmark results\n');
  await writeFile(RESULTS, replaceSection(doc, name, content));
  console.log(`bench/RESULTS.md: ${name} section updated`);
}

if (values.soak) {
  const soak = await runSoak({
    durationSec: num(values['soak-seconds'], 300),
    sampleSec: 15,
    connections: num(values.connections, 32),
    log,
  });
  await writeFile(new URL(`soak-${stamp}.json`, OUT), JSON.stringify(soak, null, 2));
  const text = renderSoak(soak, machine(), command);
  console.log(`\n${text}`);
  await writeSection('soak', text);
} else {
  const quick = values.quick;
  const only = values.only?.split(',');
  const selected = (id: string) => !only || only.includes(id);
  const caseIds = only?.filter((id) => !['quota', 'workers', 'workers-redis'].includes(id));
  if (!caseIds || caseIds.length > 0) {
    const options: BenchOptions = {
      pairs: num(values.pairs, quick ? 1 : 3),
      durationSec: num(values.duration, quick ? 1.5 : 5),
      warmupSec: quick ? 0.5 : 2,
      warmupCalls: num(values['warmup-calls'], quick ? 0 : 10_000),
      halfLoadPairs: quick ? 1 : 2,
      connections: num(values.connections, 32),
      // The steady load is open loop: it needs as many connections as requests in flight at once
      // (rate × latency, with room for a slow moment), or requests queue in the load generator and
      // p99 measures that queue. 8 (autocannon's closed-loop setting) left ~3 000 req/s waiting on 8 sockets.
      halfLoadConnections: num(values['half-connections'], 64),
      ...(caseIds ? { only: caseIds } : {}),
      ...(values.profile ? { cpuProfDir: new URL('./profiles/', OUT).pathname } : {}),
      log,
    };
    const report = await runBench(options);
    await writeFile(
      new URL(`run-${stamp}.json`, OUT),
      JSON.stringify(report, (k: string, v: unknown) => (k === 'log' ? undefined : v), 2),
    );
    const text = renderTable(report, command);
    console.log(`\n${text}`);
    await writeSection(quick ? 'quick' : 'table', text);
  }
  if (selected('workers') || selected('workers-redis')) {
    const started = machine();
    const settings = {
      durationSec: num(values.duration, quick ? 1.5 : 5),
      warmupSec: quick ? 0.5 : 2,
      connections: num(values.connections, 32),
      log,
    };
    const rows: WorkersRow[] = [];
    if (selected('workers')) {
      log(`workers: one process vs WORKERS=${availableParallelism()}, in-memory limiter (shared over IPC with workers)`);
      rows.push(...(await runWorkers({ counts: [1, availableParallelism()], limiter: 'memory', ...settings })));
    }
    if (selected('workers-redis')) {
      log('workers-redis: the Redis limiter with one and two processes');
      const { startRedis } = await import('../test/support/redis.js');
      const redis = await startRedis();
      try {
        rows.push(...(await runWorkers({ counts: [1, 2], limiter: 'redis', redisUrl: redis.url, ...settings })));
      } finally {
        await redis.close();
      }
    }
    await writeFile(new URL(`workers-${stamp}.json`, OUT), JSON.stringify(rows, null, 2));
    const text = [
      machineLines({ ...started, loadAvgEnd: loadavg()[0] ?? 0 }, command),
      `- \`/v1/meeting/get\` over the fixed upstream, ${settings.connections} connections, ${settings.durationSec} s per row after ${settings.warmupSec} s warm-up; limits ×1 000 000 (all the work, no refusal); CPU summed over every gateway process from /proc`,
      '',
      renderWorkers(rows),
    ].join('\n');
    console.log(`\n${text}`);
    await writeSection(quick ? 'workers-quick' : 'workers', text);
  }
  if (selected('quota')) {
    const started = machine();
    const quota = await runQuota({ durationSec: num(values['quota-seconds'], quick ? 15 : 60), log });
    await writeFile(new URL(`quota-${stamp}.json`, OUT), JSON.stringify(quota, null, 2));
    const text = renderQuota(quota, { ...started, loadAvgEnd: loadavg()[0] ?? 0 }, command);
    console.log(`\n${text}`);
    await writeSection(quick ? 'quota-quick' : 'quota', text);
  }
}
