import { randomUUID } from 'node:crypto';
import pino, { type Logger } from 'pino';
import { hostname } from 'node:os';
import { Redis } from 'ioredis';
import type { DeliveryJob, Journal } from './journal-types.js';
import { ADD_SCRIPT, ATTEMPTED_SCRIPT, DEAD_SCRIPT, DONE_SCRIPT, HEARTBEAT_SCRIPT, REVIVE_SCRIPT } from './redis-scripts.js';

/**
 * The journal shared by several gateway processes: Redis Streams with one consumer group.
 * A job is a stream entry plus a hash holding its attempts and state; every process is a
 * consumer with its own name, reads new entries with XREADGROUP (so each job goes to one
 * process) and acknowledges and deletes the entry once delivered or dead. An entry left pending
 * by a consumer idle longer than `claimIdleMs` (a killed process) is taken over with XAUTOCLAIM,
 * attempts and all; a live process keeps its entries fresh with a heartbeat, so only a dead or
 * stalled consumer loses them. Redis acknowledging the add is the durability point: run it with
 * AOF (`appendfsync everysec` or `always`) or replicas, as that durability is Redis's.
 */

export interface RedisJournalOptions {
  url: string;
  /** Prefix of every key (default `v1gate:webhooks`): gateways sharing one prefix share the work. */
  keyPrefix?: string;
  /** A consumer pending this long without a heartbeat is taken as dead (default 60 s). */
  claimIdleMs?: number;
  /** How long a notification id is remembered after it was accepted (default 24 h): v2 redeliveries within it are dropped. */
  dedupeTtlMs?: number;
  /** This process's consumer name; default host, pid and a random part (unique per process). A stable name lets a restart re-read its own pending entries at once. */
  consumer?: string;
  /** Longest wait of one XREADGROUP (default 1 s): bounds how late close() returns. */
  blockMs?: number;
  /** The gateway's logger (Redis outages, once each); unset: nothing is written. */
  logger?: Logger;
}

type ScriptCommand = (numKeys: number, ...args: (string | number)[]) => Promise<unknown>;
type StreamEntry = [id: string, fields: string[] | null];

const GROUP = 'deliverers';
const SCRIPTS = {
  v1gateWebhookAdd: ADD_SCRIPT,
  v1gateWebhookAttempted: ATTEMPTED_SCRIPT,
  v1gateWebhookDone: DONE_SCRIPT,
  v1gateWebhookDead: DEAD_SCRIPT,
  v1gateWebhookRevive: REVIVE_SCRIPT,
  v1gateWebhookHeartbeat: HEARTBEAT_SCRIPT,
} as const;

export class RedisJournal implements Journal {
  readonly consumer: string;
  private readonly redis: Redis;
  /** XREADGROUP BLOCK holds its connection, so reads have their own. */
  private readonly reader: Redis;
  private readonly prefix: string;
  private readonly stream: string;
  private readonly claimIdleMs: number;
  private readonly dedupeTtlMs: number;
  private readonly blockMs: number;
  /** Job id to the stream entry this consumer holds for it (heartbeat, and stale-entry checks). */
  private readonly inHand = new Map<string, string>();
  private deliver: ((job: DeliveryJob) => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private maintaining = false;
  private closed = false;
  private groupReady: Promise<void> | undefined;
  /** One warning per outage, not one per retry. */
  private failing = false;
  private readonly log: Logger;

  constructor(options: RedisJournalOptions) {
    this.prefix = options.keyPrefix ?? 'v1gate:webhooks';
    this.stream = `${this.prefix}:stream`;
    this.claimIdleMs = options.claimIdleMs ?? 60_000;
    this.dedupeTtlMs = options.dedupeTtlMs ?? 86_400_000;
    this.blockMs = options.blockMs ?? 1_000;
    this.log = options.logger ?? pino({ enabled: false });
    this.consumer = options.consumer ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    // Commands wait in the offline queue while (re)connecting, but fail after a few retries,
    // so an intake never hangs on a Redis that is gone: it answers 503 and v2 retries.
    this.redis = new Redis(options.url, { maxRetriesPerRequest: 2, retryStrategy: (n) => Math.min(n * 100, 1_000) });
    this.reader = this.redis.duplicate({ maxRetriesPerRequest: null });
    // Errors surface on the commands; without listeners ioredis logs every reconnect attempt.
    this.redis.on('error', () => {});
    this.reader.on('error', () => {});
    for (const [name, lua] of Object.entries(SCRIPTS)) this.redis.defineCommand(name, { lua });
  }

  async add(job: DeliveryJob): Promise<boolean> {
    const { attempts: _a, state: _s, lastError: _e, ...fixed } = job;
    const added = await this.script(
      'v1gateWebhookAdd',
      3,
      this.key('seen', job.id),
      this.key('job', job.id),
      this.stream,
      job.id,
      JSON.stringify(fixed),
      this.dedupeTtlMs,
    );
    return added === 1;
  }

  async get(id: string): Promise<DeliveryJob | undefined> {
    return toJob(await this.redis.hgetall(this.key('job', id)));
  }

  async attempted(id: string, attempts: number, error: string): Promise<void> {
    await this.script('v1gateWebhookAttempted', 1, this.key('job', id), attempts, error);
  }

  async done(id: string): Promise<void> {
    await this.script('v1gateWebhookDone', 2, this.key('job', id), this.stream, GROUP);
    this.inHand.delete(id);
  }

  async deadLetter(id: string, error: string): Promise<void> {
    await this.script('v1gateWebhookDead', 3, this.key('job', id), this.stream, this.key('dead'), GROUP, id, error);
    this.inHand.delete(id);
  }

  /** The job goes back into the stream as a new entry: any process's consumer may deliver it. */
  async revive(id: string): Promise<boolean> {
    return (await this.script('v1gateWebhookRevive', 3, this.key('job', id), this.stream, this.key('dead'), id)) === 1;
  }

  async dead(): Promise<DeliveryJob[]> {
    const ids = await this.redis.smembers(this.key('dead'));
    const jobs = await Promise.all(ids.map((id) => this.get(id)));
    return jobs.filter((j): j is DeliveryJob => j?.state === 'dead').sort((a, b) => a.createdAt - b.createdAt);
  }

  /** Entries in the stream: every job not yet delivered nor dead, whichever process holds it. */
  async depth(): Promise<number> {
    return this.redis.xlen(this.stream);
  }

  /** No more heartbeats for it: once idle long enough, XAUTOCLAIM hands it out again (here or elsewhere). */
  release(id: string): void {
    this.inHand.delete(id);
  }

  consume(deliver: (job: DeliveryJob) => void): void {
    this.deliver = deliver;
    void this.readLoop();
    const every = Math.max(20, Math.floor(this.claimIdleMs / 3));
    this.timer = setInterval(() => void this.maintain(), every);
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.reader.disconnect(); // ends a blocked XREADGROUP now
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }

  /** Creates the group once (from the stream's start, so entries added before it are read too). */
  private ensureGroup(): Promise<void> {
    this.groupReady ??= this.redis.xgroup('CREATE', this.stream, GROUP, '0', 'MKSTREAM').then(
      () => undefined,
      (error: Error) => {
        if (!/BUSYGROUP/.test(error.message)) {
          this.groupReady = undefined;
          throw error;
        }
      },
    );
    return this.groupReady;
  }

  private async readLoop(): Promise<void> {
    // First what this consumer name already holds (a restart under a stable name), then new entries.
    let cursor = '0';
    while (!this.closed) {
      try {
        await this.ensureGroup();
        const history = cursor !== '>';
        const reply = (await this.reader.xreadgroup(
          'GROUP',
          GROUP,
          this.consumer,
          'COUNT',
          100,
          'BLOCK',
          this.blockMs,
          'STREAMS',
          this.stream,
          cursor,
        )) as Array<[string, StreamEntry[]]> | null;
        const entries = reply?.[0]?.[1] ?? [];
        // History pages on from the last id read; once empty, new entries ('>', blocking).
        if (history) cursor = entries.length === 0 ? '>' : entries[entries.length - 1]![0];
        await this.hand(entries);
        this.failing = false;
      } catch (error) {
        if (this.closed) return;
        if (!this.failing) this.log.warn({ err: error }, 'webhook journal read failed; retrying');
        this.failing = true;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  /** Heartbeat for what this process holds, then take over what dead consumers left. */
  private async maintain(): Promise<void> {
    if (this.maintaining || this.closed || !this.deliver) return;
    this.maintaining = true;
    try {
      await this.ensureGroup();
      const held = [...this.inHand.entries()];
      if (held.length > 0) {
        const lost = (await this.script(
          'v1gateWebhookHeartbeat',
          1,
          this.stream,
          GROUP,
          this.consumer,
          ...held.map(([, e]) => e),
        )) as string[];
        const gone = new Set(lost);
        for (const [id, entry] of held) if (gone.has(entry) && this.inHand.get(id) === entry) this.inHand.delete(id);
      }
      await this.claim();
    } catch (error) {
      if (!this.closed && !this.failing) this.log.warn({ err: error }, 'webhook journal upkeep failed');
    } finally {
      this.maintaining = false;
    }
  }

  private async claim(): Promise<void> {
    let start = '0-0';
    do {
      const reply = (await this.redis.xautoclaim(this.stream, GROUP, this.consumer, this.claimIdleMs, start, 'COUNT', 100)) as [
        string,
        StreamEntry[],
        string[]?,
      ];
      start = reply[0];
      await this.hand(reply[1]);
    } while (start !== '0-0' && !this.closed);
  }

  /** Reads each entry's job and hands it over in stream order; stale entries (job delivered, dead or re-added) are acknowledged away. */
  private async hand(entries: StreamEntry[]): Promise<void> {
    if (entries.length === 0 || this.closed) return;
    const ids = entries.map(([, fields]) => idOf(fields));
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.hgetall(this.key('job', id ?? ''));
    const replies = (await pipeline.exec()) ?? [];
    const stale: string[] = [];
    const fresh: DeliveryJob[] = [];
    entries.forEach(([entry], i) => {
      const [error, hash] = replies[i] ?? [];
      if (error) throw error;
      const fields = hash as Record<string, string>;
      const job = ids[i] ? toJob(fields) : undefined;
      if (!job || job.state !== 'pending' || fields.entry !== entry) {
        stale.push(entry);
        return;
      }
      this.inHand.set(job.id, entry);
      fresh.push(job);
    });
    if (stale.length > 0)
      await this.redis
        .multi()
        .xack(this.stream, GROUP, ...stale)
        .xdel(this.stream, ...stale)
        .exec();
    for (const job of fresh) this.deliver?.(job);
  }

  private key(kind: string, id?: string): string {
    return id === undefined ? `${this.prefix}:${kind}` : `${this.prefix}:${kind}:${id}`;
  }

  private script(name: keyof typeof SCRIPTS, numKeys: number, ...args: (string | number)[]): Promise<unknown> {
    // ioredis's defineCommand adds each script as a method at run time; its types cannot know them.
    return (this.redis as unknown as Record<string, ScriptCommand>)[name]!(numKeys, ...args);
  }
}

function idOf(fields: string[] | null): string | undefined {
  if (!fields) return undefined; // deleted from the stream while still pending
  const at = fields.indexOf('id');
  return at >= 0 && at % 2 === 0 ? fields[at + 1] : undefined;
}

function toJob(hash: Record<string, string>): DeliveryJob | undefined {
  if (!hash.job) return undefined;
  const fixed = JSON.parse(hash.job) as Omit<DeliveryJob, 'attempts' | 'state' | 'lastError'>;
  return {
    ...fixed,
    attempts: Number(hash.attempts ?? 0),
    state: hash.state === 'dead' ? 'dead' : 'pending',
    ...(hash.lastError !== undefined ? { lastError: hash.lastError } : {}),
  };
}
