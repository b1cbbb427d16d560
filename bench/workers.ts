import { availableParallelism, cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { buildServers } from './procs.js';
import { renderWorkers, runWorkers, type WorkersLimiter, type WorkersMix } from './workers-case.js';

/**
 * `npm run bench:workers -- [--workers N] [--duration S] [--connections C] [--limiter off|memory|redis] [--mix same|distinct] [--rounds R]`:
 * one gateway process (WORKERS unset) against N workers (WORKERS=N, default: the number of cores),
 * the same v1 call over the fixed upstream (workers-case.ts). `npm run bench` runs the same
 * comparison as its `workers` and `workers-redis` cases and writes it into bench/RESULTS.md.
 * `--rounds R` runs each count R times in alternated order and prints medians (default 1);
 * `--warmup-calls N`: calls each gateway process answers before it is measured (default 10 000).
 * Each run also prints what the rest of the machine spent per call (this process's load generator,
 * the upstream, other work), the machine's idle share, and the ceiling those costs put on
 * "× one process" on these cores (cpu-ceiling.ts), so a ratio below target shows whether the gateway
 * or the machine held it back. The upstream always runs here, on the same cores: there is no remote mode.
 */

const { values } = parseArgs({
  options: {
    workers: { type: 'string' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '32' },
    limiter: { type: 'string', default: 'memory' },
    mix: { type: 'string' },
    rounds: { type: 'string', default: '1' },
    'warmup-calls': { type: 'string', default: '10000' },
  },
});
const limiter = values.limiter as WorkersLimiter;
if (!['off', 'memory', 'redis'].includes(limiter)) throw new Error('--limiter is off, memory or redis');
if (values.mix !== undefined && !['same', 'distinct'].includes(values.mix)) throw new Error('--mix is same or distinct (default: both)');

buildServers();
const loadStart = loadavg()[0] ?? 0;
let redis: { url: string; close(): Promise<void> } | undefined;
if (limiter === 'redis') {
  const { startRedis } = await import('../test/support/redis.js');
  redis = await startRedis();
}
try {
  const rows = await runWorkers({
    counts: [1, Number(values.workers ?? availableParallelism())],
    limiter,
    ...(values.mix ? { mixes: [values.mix as WorkersMix] } : {}),
    ...(redis ? { redisUrl: redis.url } : {}),
    durationSec: Number(values.duration),
    warmupSec: Number(values.warmup),
    connections: Number(values.connections),
    rounds: Number(values.rounds),
    warmupCalls: Number(values['warmup-calls']),
    log: (line) => console.log(line),
  });
  console.log(
    `\nmachine: ${cpus()[0]?.model ?? 'unknown'}, ${cpus().length} cores; load average ${loadStart.toFixed(1)} at the start, ${(loadavg()[0] ?? 0).toFixed(1)} at the end`,
  );
  console.log(`command: npm run bench:workers -- ${process.argv.slice(2).join(' ')}`.trim());
  console.log(`\n${renderWorkers(rows)}`);
} finally {
  await redis?.close();
}
