import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { BucketRef, TakeOutcome } from '../../src/ratelimit/bucket-store.js';
import { BATCH, bucketStoreHandlers, type StoreOp } from '../../src/ratelimit/ipc-store.js';
import { MemoryBucketStore } from '../../src/ratelimit/memory-store.js';
import { serveRpc } from '../../src/shared/ipc-rpc.js';
import { ipcWorkerOf } from './ipc-channel.js';

/**
 * Real worker processes asking a primary (this test process, answering as src/cluster/primary.ts
 * does) over their real IPC channels, in batches: what one turn of a worker's event loop asks goes
 * as messages of at most the bound, and each take gets the outcome a sequential run gets; a worker
 * that dies with a batch in flight leaves the primary's buckets as the batch made them, or as they
 * were when it dies before sending, and the primary answers the next worker (here one in this
 * process, over a channel of its own) from there. The primary's clock is frozen, so every count is exact.
 */

const NOW = 7_000_000;
const WORKER = fileURLToPath(new URL('./fixtures/batch-worker.ts', import.meta.url));

const general = (key: string): BucketRef[] => [{ key: `in:{${key}:general}:second`, spec: { ratePerSecond: 10, burst: 10 } }];
const daily = (key: string): BucketRef[] => [
  { key: `in:{${key}:report-user}:second`, spec: { ratePerSecond: 1, burst: 1 } },
  { key: `in:{${key}:report-user}:day`, spec: { ratePerSecond: 1 / 86_400, burst: 1 } },
];

/** 40 takes over three keys and two classes, some of cost 2: enough to refuse in each group. */
const TAKES = Array.from({ length: 40 }, (_, i) => ({
  buckets: i % 5 === 4 ? daily(`k${i % 2}`) : general(`k${i % 3}`),
  cost: i % 7 === 6 ? 2 : 1,
}));
const GROUPS = [...new Set(TAKES.map((t) => JSON.stringify(t.buckets)))].map((g) => JSON.parse(g) as BucketRef[]);

/** Every bucket's tokens and pause, read without spending: a lease no bucket can grant. */
const readings = (store: MemoryBucketStore) => GROUPS.map((refs) => store.leaseNow(refs, 1_000, 1_000).outcome);

/** The same takes, one after the other, on a store of their own: what every batch must equal. */
function sequential(
  takes: typeof TAKES,
  store = new MemoryBucketStore({ now: () => NOW }),
): { outcomes: TakeOutcome[]; store: MemoryBucketStore } {
  return { outcomes: takes.map((t) => store.takeNow(t.buckets, t.cost)), store };
}

interface Worker {
  child: ChildProcessWithoutNullStreams;
  /** Each message's number of operations, as the primary received them. */
  messages: number[];
  /** Resolves with the outcomes the worker printed, or with its exit signal when it died. */
  done: Promise<TakeOutcome[] | NodeJS.Signals>;
}

/** A worker process asking `primary`; `onBatch` runs as each message arrives, before it is answered. */
async function startWorker(primary: MemoryBucketStore, args: string[], onBatch: (w: Worker) => void = () => {}): Promise<Worker> {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, ...args], {
    stdio: ['pipe', 'pipe', 'pipe', 'ipc'],
  }) as ChildProcessWithoutNullStreams;
  const answer = bucketStoreHandlers(primary)[BATCH]!;
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  // An answer written to a worker that is gone fails on its channel: the primary carries on.
  child.on('error', () => {});
  const done = new Promise<TakeOutcome[] | NodeJS.Signals>((resolve, reject) =>
    child.once('exit', (code, signal) => {
      if (signal) return resolve(signal);
      const line = out.split('\n').find((l) => l.startsWith('['));
      if (code === 0 && line) resolve(JSON.parse(line) as TakeOutcome[]);
      else reject(new Error(`worker failed (${code}):\n${out}\n${err}`));
    }),
  );
  const worker: Worker = { child, messages: [], done };
  serveRpc(child, {
    [BATCH]: (ops: never) => {
      worker.messages.push((ops as StoreOp[]).length);
      onBatch(worker);
      return answer(ops);
    },
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => out.includes('ready\n') && resolve());
    void done.then(() => reject(new Error(`worker exited before ready:\n${err}`)), reject);
  });
  return worker;
}

function ask(worker: Worker, takes: typeof TAKES): void {
  worker.child.stdin.write(`${JSON.stringify(takes)}\n`);
}

describe('batches from real worker processes to one primary', () => {
  it("a tick's takes across keys and classes travel in bounded messages and get the outcomes a sequential run gets", async () => {
    const primary = new MemoryBucketStore({ now: () => NOW });
    const worker = await startWorker(primary, ['16']);
    ask(worker, TAKES);
    const outcomes = await worker.done;

    const expected = sequential(TAKES);
    expect(outcomes).toEqual(expected.outcomes);
    expect(expected.outcomes.filter((o) => o.allowed).length).toBeGreaterThan(0);
    expect(expected.outcomes.filter((o) => !o.allowed).length).toBeGreaterThan(0);
    expect(worker.messages).toEqual([16, 16, 8]);
    expect(readings(primary)).toEqual(readings(expected.store));
  });

  it('a worker killed after its batch reached the primary: the batch is applied whole, and the next worker continues from it', async () => {
    const primary = new MemoryBucketStore({ now: () => NOW });
    const dying = await startWorker(primary, ['64'], (w) => w.child.kill('SIGKILL'));
    ask(dying, TAKES);
    expect(await dying.done).toBe('SIGKILL');
    expect(dying.messages).toEqual([TAKES.length]);

    const expected = sequential(TAKES);
    expect(readings(primary)).toEqual(readings(expected.store));

    const next = ipcWorkerOf(primary).store;
    expect(await Promise.all(TAKES.map((t) => next.take(t.buckets, t.cost)))).toEqual(sequential(TAKES, expected.store).outcomes);
  });

  it('a worker killed before its tick was sent: the primary is untouched, and the next worker starts from full buckets', async () => {
    const primary = new MemoryBucketStore({ now: () => NOW });
    const dying = await startWorker(primary, ['64', 'die-before-send']);
    ask(dying, TAKES);
    expect(await dying.done).toBe('SIGKILL');
    expect(dying.messages).toEqual([]);
    expect(readings(primary)).toEqual(readings(new MemoryBucketStore({ now: () => NOW })));

    const next = ipcWorkerOf(primary).store;
    expect(await Promise.all(TAKES.map((t) => next.take(t.buckets, t.cost)))).toEqual(sequential(TAKES).outcomes);
  });
});
