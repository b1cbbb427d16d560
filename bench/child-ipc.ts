import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { resolve } from 'node:path';
import { AllocationCounter } from './allocation-counter.js';

/**
 * The measured side of the benchmark's parent ↔ child protocol (procs.ts is the parent side):
 * a server process answers `cpu` and `memory` (after a full GC when node runs with --expose-gc),
 * profiles its CPU between `profile-start` and `profile-stop` (bench/profile.ts), counts the bytes
 * it allocates between `alloc-start` and `alloc-stop` and samples where (a .heapprofile), and shuts
 * down cleanly on `stop` or when the parent goes away.
 */
export function answerParent(stop: () => Promise<unknown>): void {
  const exit = () => process.exit(0);
  const profiler = new WindowProfiler();
  const allocations = new AllocationCounter();
  const heap = new HeapSampler();
  process.on('message', (message: { type?: string }) => {
    if (message?.type === 'cpu') process.send?.({ type: 'cpu', usage: process.cpuUsage() });
    if (message?.type === 'memory') {
      (globalThis as { gc?: () => void }).gc?.();
      process.send?.({ type: 'memory', usage: process.memoryUsage() });
    }
    if (message?.type === 'profile-start') answer('profile-start', profiler.start());
    if (message?.type === 'profile-stop')
      answer(
        'profile-stop',
        profiler.stop().then((file) => ({ file })),
      );
    if (message?.type === 'alloc-start')
      answer(
        'alloc-start',
        heap.start().then(() => allocations.start()),
      );
    if (message?.type === 'alloc-stop')
      answer(
        'alloc-stop',
        heap.stop().then((file) => ({ bytes: allocations.stop(), file })),
      );
    if (message?.type === 'stop') void stop().finally(exit);
  });
  process.on('disconnect', exit);
}

/** The outcome of a request from the parent, sent back under its type: what it gave, or `error`. */
function answer(type: string, outcome: Promise<object | void>): void {
  outcome.then(
    (value) => process.send?.({ type, ...value }),
    (error: unknown) => process.send?.({ type, error: String(error) }),
  );
}

/**
 * A CPU profile of one window of the process's life (`--cpu-prof` covers all of it, start-up and
 * warm-up included), written as a .cpuprofile file into bench/out/profiles/.
 */
class WindowProfiler {
  private session: Session | undefined;

  async start(): Promise<void> {
    this.session = new Session();
    this.session.connect();
    await this.session.post('Profiler.enable');
    await this.session.post('Profiler.start');
  }

  async stop(): Promise<string> {
    const session = this.session;
    if (!session) throw new Error('profile-stop without profile-start');
    this.session = undefined;
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    return writeProfile('cpuprofile', profile);
  }
}

/** Where a window's heap allocations come from: V8's sampling heap profiler, one sample per 4 KiB on average. */
class HeapSampler {
  private session: Session | undefined;

  async start(): Promise<void> {
    this.session = new Session();
    this.session.connect();
    await this.session.post('HeapProfiler.enable');
    await this.session.post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  }

  async stop(): Promise<string> {
    const session = this.session;
    if (!session) throw new Error('alloc-stop without alloc-start');
    this.session = undefined;
    const { profile } = await session.post('HeapProfiler.stopSampling');
    session.disconnect();
    return writeProfile('heapprofile', profile);
  }
}

function writeProfile(kind: 'cpuprofile' | 'heapprofile', profile: object): string {
  const dir = resolve('bench/out/profiles');
  mkdirSync(dir, { recursive: true });
  const file = `${dir}/${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}.${kind}`;
  writeFileSync(file, JSON.stringify(profile));
  return file;
}
