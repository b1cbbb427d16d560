import { availableParallelism, cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { buildServers } from './procs.js';
import { renderWorkers, runWorkers, type WorkersLimiter } from './workers-case.js';

/**
 * `npm run bench:workers -- [--workers N] [--duration S] [--connections C] [--limiter off|memory|redis]`:
 * one gateway process (WORKERS unset) against N workers (WORKERS=N, default: the number of cores),
 * the same v1 call over the fixed upstream (workers-case.ts). `npm run bench` runs the same
 * comparison as its `workers` and `workers-redis` cases and writes it into bench/RESULTS.md.
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
const limiter = values.limiter as WorkersLimiter;
if (!['off', 'memory', 'redis'].includes(limiter)) throw new Error('--limiter is off, memory or redis');

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
    ...(redis ? { redisUrl: redis.url } : {}),
    durationSec: Number(values.duration),
    warmupSec: Number(values.warmup),
    connections: Number(values.connections),
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
