import PQueue from 'p-queue';
import pino, { type Logger } from 'pino';
import { attemptDelivery } from './attempt.js';
import type { DeliveryJob, Journal } from './journal-types.js';
import type { Receivers } from './receivers.js';

/**
 * Delivers journaled jobs: at most `maxAttempts` per notification with an exponential backoff
 * between them, then a dead letter. Each receiver (URL origin) has its own queue, so a slow or
 * dead receiver never holds up another. The journal decides which jobs are this process's to
 * deliver (all of them for the file journal, a consumer group's share with Redis); the
 * dispatcher only depends on the `Journal` interface.
 */

export interface DispatcherOptions {
  maxAttempts: number;
  deadlineMs: number;
  backoffMs: number;
  perReceiverConcurrency: number;
  /** Where a job's subscription posts now (its URL and credentials); unset: each job's own URL, without credentials. */
  receivers?: Pick<Receivers, 'destinationOf'>;
  /** The gateway's logger (journal errors, dead letters); unset: nothing is written. */
  logger?: Logger;
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
  /** Ids queued, in flight or waiting for a retry here: a job handed twice is not run twice. */
  private readonly held = new Set<string>();
  private counts = { deliveries: 0, retries: 0, deadLetters: 0 };
  /** The last depth an asynchronous journal reported (stats() stays synchronous for /metrics). */
  private lastDepth = 0;
  private closed = false;
  private readonly log: Logger;

  constructor(
    private readonly journal: Journal,
    private readonly options: DispatcherOptions,
  ) {
    this.log = options.logger ?? pino({ enabled: false });
  }

  /** Starts delivering: what a previous process left pending (attempt counts included), then whatever the journal hands over. */
  resume(): void {
    this.journal.consume((job) => this.take(job));
  }

  /** Resolves once the job is journaled (true) or known already (false): the intake's 2XX waits for it. */
  async submit(job: DeliveryJob): Promise<boolean> {
    return this.journal.add(job);
  }

  /** The journal hands the revived job back to a consumer (this process or, with Redis, any). */
  async replay(id: string): Promise<boolean> {
    return this.journal.revive(id);
  }

  async deadLetters(): Promise<DeliveryJob[]> {
    return this.journal.dead();
  }

  stats(): WebhookStats {
    const receiverQueueDepth: Record<string, number> = {};
    for (const [origin, queue] of this.queues) receiverQueueDepth[origin] = queue.size + queue.pending;
    const depth = this.journal.depth();
    if (typeof depth === 'number') this.lastDepth = depth;
    else depth.then((d) => (this.lastDepth = d)).catch(() => {}); // the next scrape shows it
    return { ...this.counts, journalDepth: this.lastDepth, receiverQueueDepth };
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

  private take(job: DeliveryJob): void {
    if (this.closed || this.held.has(job.id) || job.state !== 'pending') return;
    this.held.add(job.id);
    this.schedule(job, 0);
  }

  private schedule(job: DeliveryJob, delayMs: number): void {
    if (this.closed) return;
    if (delayMs <= 0) {
      this.enqueue(job);
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.enqueue(job);
    }, delayMs);
    this.timers.add(timer);
  }

  /** Queued in the order handed over, so one receiver gets a meeting's notifications in order. */
  private enqueue(handed: DeliveryJob): void {
    this.inFlight.add(handed.id);
    void this.queueFor(handed.url).add(async () => {
      try {
        if (this.closed) return;
        // Fresh from the journal: attempts as last recorded, and gone if delivered meanwhile.
        const job = await this.journal.get(handed.id);
        if (!job || job.state !== 'pending') {
          this.held.delete(handed.id);
          this.journal.release?.(handed.id);
          return;
        }
        await this.runAttempt(job);
      } catch (error) {
        // The journal is unreachable: leave the job to be handed over again (a Redis consumer's
        // pending entry is claimed after its idle time; the file journal does not throw here).
        this.held.delete(handed.id);
        this.journal.release?.(handed.id);
        this.log.warn({ webhook: handed.id, err: error }, 'webhook journal error: the notification is left pending');
      } finally {
        this.inFlight.delete(handed.id);
      }
    });
  }

  private async runAttempt(job: DeliveryJob): Promise<void> {
    const destination = this.options.receivers?.destinationOf(job) ?? (job.subscription ? undefined : job);
    if (!destination) return this.dropped(job);
    const result = await attemptDelivery(destination.url, job.body, destination.authorization, this.options.deadlineMs, {
      logger: this.log,
      webhook: job.id,
      attempt: job.attempts + 1,
    });
    if (this.closed) return; // a closing process leaves the job pending for the next one
    if (result.ok) {
      await this.journal.done(job.id);
      this.held.delete(job.id);
      this.counts.deliveries++;
      return;
    }
    const attempts = job.attempts + 1;
    await this.journal.attempted(job.id, attempts, result.error);
    if (attempts >= this.options.maxAttempts) {
      await this.journal.deadLetter(job.id, result.error);
      this.held.delete(job.id);
      this.counts.deadLetters++;
      this.log.warn({ webhook: job.id, receiver: new URL(job.url).origin, attempts, error: result.error }, 'webhook dead-lettered');
      return;
    }
    this.counts.retries++;
    this.schedule({ ...job, attempts }, this.options.backoffMs * 2 ** (attempts - 1));
  }

  /** A job whose subscription is no longer in the file: nowhere to post it, so a dead letter saying why. */
  private async dropped(job: DeliveryJob): Promise<void> {
    const error = 'its subscription is no longer in V1_WEBHOOKS_FILE';
    await this.journal.deadLetter(job.id, error);
    this.held.delete(job.id);
    this.counts.deadLetters++;
    this.log.warn({ webhook: job.id, receiver: new URL(job.url).origin, error }, 'webhook dead-lettered');
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
