import { closeSync, existsSync, fchmodSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { LRUCache } from 'lru-cache';
import type { DeliveryJob, Journal } from './journal-types.js';

export type { DeliveryJob, Journal } from './journal-types.js';

/**
 * The embedded journal: an append-only log of JSON lines, each write fsynced before it returns,
 * so a job is on disk before the intake answers 2XX and a SIGKILL loses nothing acknowledged.
 * Opening replays the log (a torn last line from a crash is skipped) and compacts it to the jobs
 * still pending or dead and the ids delivered lately, so the file does not grow forever.
 *
 * Delivered ids are journaled too (`done`, with the time): the v2 service redelivers an event it
 * saw no 2XX for, and that redelivery may reach a restarted process; it must not notify again.
 * They are kept for `rememberDeliveredMs` after delivery (the Redis journal's dedupe TTL) and at
 * most `maxDelivered` of them, the oldest forgotten first.
 */

export interface FileJournalOptions {
  /** How long a delivered id is remembered (default 24 h). */
  rememberDeliveredMs?: number;
  /** The most delivered ids remembered (default 10,000): bounds memory and the compacted file. */
  maxDelivered?: number;
}

type Entry =
  | { t: 'add'; job: DeliveryJob }
  | { t: 'attempt'; id: string; attempts: number; error: string }
  /** `at`: when it was delivered (ms since the epoch); absent in journals written before it was kept. */
  | { t: 'done'; id: string; at?: number }
  | { t: 'dead'; id: string; error: string }
  | { t: 'revive'; id: string };

export class FileJournal implements Journal {
  private fd: number;
  private readonly jobs = new Map<string, DeliveryJob>();
  /** Ids delivered lately, to when they were delivered: the v2 service redelivering an event does not notify twice. */
  private readonly delivered: LRUCache<string, number>;
  private readonly rememberDeliveredMs: number;
  /** This process is the only consumer: whatever is added or revived is its to deliver. */
  private deliver: ((job: DeliveryJob) => void) | undefined;

  constructor(
    private readonly file: string,
    options: FileJournalOptions = {},
  ) {
    this.rememberDeliveredMs = options.rememberDeliveredMs ?? 86_400_000;
    this.delivered = new LRUCache<string, number>({ max: options.maxDelivered ?? 10_000, ttl: this.rememberDeliveredMs });
    mkdirSync(dirname(file), { recursive: true });
    if (existsSync(file)) this.replay(readFileSync(file, 'utf8'));
    this.compact();
    // Its lines carry the receivers' credentials: the owner's to read only, whatever the umask.
    this.fd = openSync(file, 'a', 0o600);
  }

  /** Jobs still to deliver, oldest first. */
  pending(): DeliveryJob[] {
    return [...this.jobs.values()].filter((j) => j.state === 'pending');
  }

  dead(): DeliveryJob[] {
    return [...this.jobs.values()].filter((j) => j.state === 'dead');
  }

  depth(): number {
    return this.pending().length;
  }

  consume(deliver: (job: DeliveryJob) => void): void {
    this.deliver = deliver;
    for (const job of this.pending()) deliver({ ...job });
  }

  get(id: string): DeliveryJob | undefined {
    return this.jobs.get(id);
  }

  /** Returns false when the id is already known (an event redelivered by v2 is not doubled). */
  add(job: DeliveryJob): boolean {
    if (this.jobs.has(job.id) || this.delivered.has(job.id)) return false;
    this.write({ t: 'add', job });
    this.jobs.set(job.id, { ...job });
    this.deliver?.({ ...job });
    return true;
  }

  attempted(id: string, attempts: number, error: string): void {
    this.write({ t: 'attempt', id, attempts, error });
    this.apply({ t: 'attempt', id, attempts, error });
  }

  done(id: string): void {
    const entry = { t: 'done', id, at: Date.now() } satisfies Entry;
    this.write(entry);
    this.apply(entry);
  }

  deadLetter(id: string, error: string): void {
    this.write({ t: 'dead', id, error });
    this.apply({ t: 'dead', id, error });
  }

  /** A dead letter back to pending with a fresh set of attempts. */
  revive(id: string): boolean {
    if (this.jobs.get(id)?.state !== 'dead') return false;
    this.write({ t: 'revive', id });
    this.apply({ t: 'revive', id });
    this.deliver?.({ ...this.jobs.get(id)! });
    return true;
  }

  close(): void {
    closeSync(this.fd);
  }

  private write(entry: Entry): void {
    writeSync(this.fd, `${JSON.stringify(entry)}\n`);
    fsyncSync(this.fd);
  }

  private replay(text: string): void {
    for (const line of text.split('\n')) {
      if (!line) continue;
      let entry: Entry;
      try {
        entry = JSON.parse(line) as Entry;
      } catch {
        continue; // a line torn by a crash mid-write was never acknowledged
      }
      this.apply(entry);
    }
  }

  private apply(entry: Entry): void {
    if (entry.t === 'add') {
      this.jobs.set(entry.job.id, { ...entry.job });
      return;
    }
    if (entry.t === 'done') {
      this.jobs.delete(entry.id);
      this.rememberDelivered(entry.id, entry.at ?? Date.now());
      return;
    }
    const job = this.jobs.get(entry.id);
    if (!job) return;
    if (entry.t === 'attempt') Object.assign(job, { attempts: entry.attempts, lastError: entry.error });
    else if (entry.t === 'dead') Object.assign(job, { state: 'dead', lastError: entry.error });
    else Object.assign(job, { state: 'pending', attempts: 0 });
  }

  /** Remembered for what is left of its time since delivery; one delivered too long ago is not. */
  private rememberDelivered(id: string, at: number): void {
    const left = at + this.rememberDeliveredMs - Date.now();
    if (left > 0) this.delivered.set(id, at, { ttl: Math.min(left, this.rememberDeliveredMs) });
    else this.delivered.delete(id);
  }

  /**
   * Rewrites the log, atomically (write, fsync, rename), as one `add` per live job and one `done`
   * per id still remembered, oldest first, so replaying it remembers them in the same order.
   */
  private compact(): void {
    const temp = `${this.file}.compact`;
    const fd = openSync(temp, 'w', 0o600);
    fchmodSync(fd, 0o600); // a temporary file left by a crash keeps its old mode otherwise
    for (const id of [...this.delivered.rkeys()]) {
      const at = this.delivered.peek(id);
      if (at !== undefined) writeSync(fd, `${JSON.stringify({ t: 'done', id, at } satisfies Entry)}\n`);
    }
    for (const job of this.jobs.values()) writeSync(fd, `${JSON.stringify({ t: 'add', job } satisfies Entry)}\n`);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temp, this.file);
  }
}
