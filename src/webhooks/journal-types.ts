/**
 * What the dispatcher needs from a journal, whichever holds the jobs: the fsynced file of one
 * process (journal.ts) or Redis Streams shared by several (redis-journal.ts). Results may be
 * promises (Redis answers over the network) or plain values (the file journal writes
 * synchronously); the dispatcher awaits either, so FileJournal keeps its synchronous API.
 */

export type Awaitable<T> = T | Promise<T>;

export interface DeliveryJob {
  /** Stable per notification (the v2 event and the subscription), for the logs and replays. */
  id: string;
  /** The subscription it is for (receivers.ts), looked up for its URL and credentials when delivered. */
  subscription?: string;
  /** The receiver: its URL without the query (a job journaled before `subscription`: the whole URL). */
  url: string;
  body: string;
  /** Only in a job journaled before `subscription`: the subscription's `Basic ...`. */
  authorization?: string;
  attempts: number;
  state: 'pending' | 'dead';
  lastError?: string;
  createdAt: number;
}

export interface Journal {
  /**
   * Journals a new job, durably, before it resolves (the intake answers 2XX only after it).
   * False when the id is already known (pending, dead or delivered lately): a v2 redelivery.
   */
  add(job: DeliveryJob): Awaitable<boolean>;
  /** The job as journaled now (attempts included), or undefined once delivered. */
  get(id: string): Awaitable<DeliveryJob | undefined>;
  attempted(id: string, attempts: number, error: string): Awaitable<void>;
  done(id: string): Awaitable<void>;
  deadLetter(id: string, error: string): Awaitable<void>;
  /** A dead letter back to pending with a fresh set of attempts; false when `id` is not dead. */
  revive(id: string): Awaitable<boolean>;
  dead(): Awaitable<DeliveryJob[]>;
  /** Jobs not yet delivered nor dead (the journal-depth gauge). */
  depth(): Awaitable<number>;
  /**
   * Starts handing this process the jobs it is to deliver, each once, in journal order: the file
   * journal hands every pending job now and then each one added or revived; the Redis journal
   * hands what its consumer reads from the group, and what it claims from a consumer gone idle.
   */
  consume(deliver: (job: DeliveryJob) => void): void;
  /**
   * This process gives a handed job up without finishing it (the journal failed mid-attempt, or
   * the job was finished elsewhere): a shared journal stops keeping it alive, so it is claimed
   * again after the idle time. Optional: the file journal hands jobs to one process only.
   */
  release?(id: string): void;
  close(): Awaitable<void>;
}
