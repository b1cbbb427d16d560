import { Worker } from 'node:worker_threads';
import type { Answer } from './answers.js';

/**
 * Shadow mode's answers are parsed on a thread of their own, never on the event loop: parsing a
 * 2.4 MB XML answer takes half a second, which on the loop would hold every client's call for as
 * long. One thread takes the answers in turn (the comparisons, two at a time, are the only
 * callers), its heap capped (`maxHeapMiB`, 128 by default): an answer that would take more fails its comparison,
 * counted, and the next parse starts a new thread. The thread starts with the first answer and
 * never keeps the process alive.
 */
export class AnswerParser {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve(answer: Answer): void; reject(error: Error): void }>();

  constructor(private readonly options: { maxHeapMiB?: number } = {}) {}

  parse(text: string, contentType: string | undefined): Promise<Answer> {
    const id = this.nextId++;
    return new Promise<Answer>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.thread().postMessage({ id, text, contentType });
    });
  }

  /** Ends the thread; answers still waiting fail. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const resourceLimits = { maxOldGenerationSizeMb: this.options.maxHeapMiB ?? 128 };
    // Run from the TypeScript sources (tests, `npm run dev`), the thread loads them through tsx as well.
    const worker = FROM_SOURCES
      ? new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(WORKER_URL.href)}); })`, {
          eval: true,
          resourceLimits,
        })
      : new Worker(WORKER_URL, { resourceLimits });
    worker.unref();
    worker.on('message', ({ id, answer, error }: { id: number; answer?: Answer; error?: string }) => {
      const waiter = this.waiting.get(id);
      this.waiting.delete(id);
      if (error === undefined) waiter?.resolve(answer!);
      else waiter?.reject(new Error(error));
    });
    // Out of heap, or terminated: whatever it held fails, and the next parse starts another.
    const failAll = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    };
    worker.on('error', failAll);
    worker.on('exit', () => failAll(new Error('The answer parser stopped.')));
    this.worker = worker;
    return worker;
  }
}

const FROM_SOURCES = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(FROM_SOURCES ? './answer-worker.ts' : './answer-worker.js', import.meta.url);
