import PQueue from 'p-queue';
import { attemptDelivery } from './attempt.js';
import type { DeliveryJob, FileJournal } from './journal.js';

/**
 * Delivers journaled jobs: at most `maxAttempts` per notification with an exponential backoff
 * between them, then a dead letter. Each receiver (URL origin) has its own queue, so a slow or
 * dead receiver never holds up another.
 */

export interface DispatcherOptions {
  maxAttempts: number;
  deadlineMs: number;
  backoffMs: number;
  perReceiverConcurrency: number;
}

export interface WebhookStats {
  deliveries: number;
  retries: number;
  deadLetters: number;
  journalDepth: number;
  receiverQueueDepth: Record<string, number>;
}

export class Dispatcher {
  private readonly queues = new Map<string, PQueue>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<string>();
  private counts = { deliveries: 0, retries: 0, deadLetters: 0 };
  private closed = false;

  constructor(
    private readonly journal: FileJournal,
    private readonly options: DispatcherOptions,
  ) {}

  /** Resumes what a previous process left pending, attempt counts included. */
  resume(): void {
    for (const job of this.journal.pending()) this.schedule(job.id, 0);
  }

  submit(job: DeliveryJob): void {
    if (this.journal.add(job)) this.schedule(job.id, 0);
  }

  replay(id: string): boolean {
    if (!this.journal.revive(id)) return false;
    this.schedule(id, 0);
    return true;
  }

  deadLetters(): DeliveryJob[] {
    return this.journal.dead();
  }

  stats(): WebhookStats {
    const receiverQueueDepth: Record<string, number> = {};
    for (const [origin, queue] of this.queues) receiverQueueDepth[origin] = queue.size + queue.pending;
    return { ...this.counts, journalDepth: this.journal.pending().length, receiverQueueDepth };
  }

  /** Waits until nothing is queued, in flight or waiting for a retry. */
  async idle(): Promise<void> {
    while (this.timers.size > 0 || this.inFlight.size > 0) {
      await Promise.all([...this.queues.values()].map((q) => q.onIdle()));
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const q of this.queues.values()) q.clear();
  }

  private schedule(id: string, delayMs: number): void {
    if (this.closed) return;
    if (delayMs <= 0) {
      this.enqueue(id);
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.enqueue(id);
    }, delayMs);
    this.timers.add(timer);
  }

  private enqueue(id: string): void {
    const job = this.journal.get(id);
    if (!job || job.state !== 'pending' || this.inFlight.has(id)) return;
    this.inFlight.add(id);
    void this.queueFor(job.url).add(async () => {
      try {
        await this.runAttempt(job);
      } finally {
        this.inFlight.delete(id);
      }
    });
  }

  private async runAttempt(job: DeliveryJob): Promise<void> {
    if (this.closed) return;
    const result = await attemptDelivery(job.url, job.body, job.authorization, this.options.deadlineMs);
    if (this.closed) return; // a closing process leaves the job pending for the next one
    if (result.ok) {
      this.journal.done(job.id);
      this.counts.deliveries++;
      return;
    }
    const attempts = job.attempts + 1;
    this.journal.attempted(job.id, attempts, result.error);
    if (attempts >= this.options.maxAttempts) {
      this.journal.deadLetter(job.id, result.error);
      this.counts.deadLetters++;
      console.warn(`v1gate: webhook ${job.id} to ${new URL(job.url).origin} dead-lettered after ${attempts} attempts: ${result.error}`);
      return;
    }
    this.counts.retries++;
    this.schedule(job.id, this.options.backoffMs * 2 ** (attempts - 1));
  }

  private queueFor(url: string): PQueue {
    const origin = new URL(url).origin;
    let queue = this.queues.get(origin);
    if (!queue) {
      queue = new PQueue({ concurrency: this.options.perReceiverConcurrency });
      this.queues.set(origin, queue);
    }
    return queue;
  }
}
