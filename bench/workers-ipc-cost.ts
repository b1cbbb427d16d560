import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { BucketRef } from '../src/ratelimit/bucket-store.js';
import { IpcBucketStore, bucketStoreHandlers } from '../src/ratelimit/ipc-store.js';
import { MemoryBucketStore } from '../src/ratelimit/memory-store.js';
import { IpcRpcClient, serveRpc } from '../src/shared/ipc-rpc.js';

/**
 * `npx tsx bench/workers-ipc-cost.ts [--takes N] [--sizes 1,4,16,64] [--rounds R]`: what a cluster
 * worker's take from its primary costs in CPU, worker and primary apart, when a turn of the
 * worker's event loop asks 1, 4, 16... takes (one message carries them all). This process is the
 * primary (a MemoryBucketStore answering as src/cluster/primary.ts does); the worker is a child
 * over a real IPC channel, taking from 1,000 keys whose buckets never refuse. A size of 1 is a
 * message per take, what every take cost before batches. Rounds alternate the sizes; medians.
 */

const { values } = parseArgs({
  options: {
    takes: { type: 'string', default: '40000' },
    sizes: { type: 'string', default: '1,2,4,16,64' },
    rounds: { type: 'string', default: '3' },
    worker: { type: 'boolean', default: false },
  },
});

const SPEC = { ratePerSecond: 1e9, burst: 1e9 };
const REFS: BucketRef[][] = Array.from({ length: 1_000 }, (_, i) => [{ key: `in:{bench-${i}:general}:second`, spec: SPEC }]);

interface Run {
  size: number;
  takes: number;
}

/** The worker: each run's takes in turns of `size`, answered with its own CPU µs per take. */
async function worker(): Promise<void> {
  const store = new IpcBucketStore(new IpcRpcClient(process), { timeoutMs: 60_000 });
  process.on('message', (message: { type?: string } & Run) => {
    if (message?.type !== 'bench:run') return;
    void (async () => {
      const cpu = process.cpuUsage();
      let n = 0;
      while (n < message.takes) {
        const turn = Array.from({ length: message.size }, () => store.take(REFS[n++ % REFS.length]!));
        await Promise.all(turn);
      }
      const used = process.cpuUsage(cpu);
      process.send!({ type: 'bench:done', us: (used.user + used.system) / message.takes });
    })();
  });
  process.send!({ type: 'bench:ready' });
}

async function primary(): Promise<void> {
  const takes = Number(values.takes);
  const sizes = values.sizes.split(',').map(Number);
  const rounds = Number(values.rounds);
  const child = fork(new URL(import.meta.url).pathname, ['--worker'], { execArgv: ['--import', 'tsx'] });
  serveRpc(child, bucketStoreHandlers(new MemoryBucketStore()));
  const next = (type: string) =>
    new Promise<{ us: number }>((resolve) => {
      const on = (m: { type?: string; us: number }) => m?.type === type && (child.off('message', on), resolve(m));
      child.on('message', on);
    });
  await next('bench:ready');
  const load = [loadavg()[0] ?? 0];
  const measured = new Map<number, { worker: number; primary: number; wallUs: number }[]>();
  const run = async (size: number, n: number) => {
    const cpu = process.cpuUsage();
    const started = performance.now();
    child.send({ type: 'bench:run', size, takes: n });
    const { us } = await next('bench:done');
    const used = process.cpuUsage(cpu);
    return { worker: us, primary: (used.user + used.system) / n, wallUs: ((performance.now() - started) * 1_000) / n };
  };
  for (const size of sizes) await run(size, takes / 4); // warm-up: both sides compile their hot code
  for (let round = 0; round < rounds; round++)
    for (const size of round % 2 ? [...sizes].reverse() : sizes)
      measured.set(size, [...(measured.get(size) ?? []), await run(size, takes)]);
  load.push(loadavg()[0] ?? 0);
  child.kill();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(
    `${takes} takes per run, ${rounds} rounds; load average ${load[0]!.toFixed(1)} at the start, ${load[1]!.toFixed(1)} at the end\n`,
  );
  console.log('| takes per turn | CPU µs per take: worker | primary | both | wall µs per take |');
  console.log('|---|---|---|---|---|');
  for (const size of sizes) {
    const runs = measured.get(size)!;
    const [w, p] = [median(runs.map((r) => r.worker)), median(runs.map((r) => r.primary))];
    console.log(
      `| ${size} | ${w.toFixed(2)} | ${p.toFixed(2)} | ${(w + p).toFixed(2)} | ${median(runs.map((r) => r.wallUs)).toFixed(2)} |`,
    );
  }
}

await (values.worker ? worker() : primary());
