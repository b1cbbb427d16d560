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
  const profiler = cpuWindow();
  const allocations = new AllocationCounter();
  const heap = heapWindow();
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
 * One window of the process's life seen through the inspector (`--cpu-prof` covers all of it,
 * start-up and warm-up included): a profile started at `start` and written at `stop` into
 * bench/out/profiles/, a .cpuprofile of its CPU or a .heapprofile of where it allocated.
 */
class InspectorWindow {
  private session: Session | undefined;

  constructor(
    private readonly begin: (session: Session) => Promise<unknown>,
    private readonly end: (session: Session) => Promise<{ profile: object }>,
    private readonly kind: 'cpuprofile' | 'heapprofile',
  ) {}

  async start(): Promise<void> {
    this.session = new Session();
    this.session.connect();
    await this.begin(this.session);
  }

  async stop(): Promise<string> {
    const session = this.session;
    if (!session) throw new Error(`no ${this.kind} window was started`);
    this.session = undefined;
    const { profile } = await this.end(session);
    session.disconnect();
    return writeProfile(this.kind, profile);
  }
}

const cpuWindow = () =>
  new InspectorWindow(
    async (session) => {
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    },
    (session) => session.post('Profiler.stop'),
    'cpuprofile',
  );

/** V8's sampling heap profiler, one sample per 4 KiB on average, the garbage collected meanwhile kept. */
const heapWindow = () =>
  new InspectorWindow(
    async (session) => {
      await session.post('HeapProfiler.enable');
      await session.post('HeapProfiler.startSampling', {
        samplingInterval: 4096,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
    },
    (session) => session.post('HeapProfiler.stopSampling'),
    'heapprofile',
  );

function writeProfile(kind: 'cpuprofile' | 'heapprofile', profile: object): string {
  const dir = resolve('bench/out/profiles');
  mkdirSync(dir, { recursive: true });
  const file = `${dir}/${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}.${kind}`;
  writeFileSync(file, JSON.stringify(profile));
  return file;
}
