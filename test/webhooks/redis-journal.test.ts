import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Dispatcher } from '../../src/webhooks/dispatcher.js';
import { createWebhookIntake } from '../../src/webhooks/intake.js';
import type { DeliveryJob } from '../../src/webhooks/journal-types.js';
import { RedisJournal, type RedisJournalOptions } from '../../src/webhooks/redis-journal.js';
import { startRedis, type RunningRedis } from '../support/redis.js';
import { signedHeaders } from '../support/webhook-receivers.js';

/**
 * The Redis Streams journal against a real redis-server: dedupe across journals, attempts and
 * dead letters kept in Redis, revive, one consumer per job, and a dead consumer's jobs claimed.
 */

let server: RunningRedis;
let admin: Redis;
const open: RedisJournal[] = [];
let prefixes = 0;

beforeAll(async () => {
  server = await startRedis();
  admin = new Redis(server.url);
});
afterAll(async () => {
  await Promise.all(open.map((j) => j.close()));
  await admin?.quit();
  await server?.close();
});

const job = (id: string): DeliveryJob => ({
  id,
  url: 'http://r.example/hook',
  body: `n=${id}`,
  attempts: 0,
  state: 'pending',
  createdAt: Date.now(),
});

function journal(prefix: string, options: Partial<RedisJournalOptions> = {}): RedisJournal {
  const j = new RedisJournal({ url: server.url, keyPrefix: prefix, claimIdleMs: 300, blockMs: 100, ...options });
  open.push(j);
  return j;
}

function collect(j: RedisJournal): DeliveryJob[] {
  const handed: DeliveryJob[] = [];
  j.consume((job) => handed.push(job));
  return handed;
}

async function until(condition: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const freshPrefix = () => `test-${++prefixes}`;

describe('RedisJournal', () => {
  it('adds once per id, across journals sharing a prefix, and after delivery within the dedupe TTL', async () => {
    const prefix = freshPrefix();
    const a = journal(prefix);
    const b = journal(prefix);
    expect(await a.add(job('x'))).toBe(true);
    expect(await b.add(job('x'))).toBe(false);
    expect(await a.depth()).toBe(1);
    await a.done('x');
    expect(await b.add(job('x'))).toBe(false);
    expect(await a.depth()).toBe(0);
    expect(await a.get('x')).toBeUndefined();
    expect(await admin.pttl(`${prefix}:seen:x`)).toBeGreaterThan(86_000_000);
  });

  it('keeps attempts and dead letters in Redis, and revives a dead letter with fresh attempts', async () => {
    const prefix = freshPrefix();
    const a = journal(prefix);
    await a.add(job('d'));
    await a.attempted('d', 2, 'HTTP 500');
    expect(await journal(prefix).get('d')).toMatchObject({ attempts: 2, lastError: 'HTTP 500', state: 'pending', body: 'n=d' });
    await a.deadLetter('d', 'HTTP 500');
    expect(await a.depth()).toBe(0);
    const other = journal(prefix);
    expect((await other.dead()).map((j) => [j.id, j.attempts, j.lastError])).toEqual([['d', 2, 'HTTP 500']]);
    expect(await other.revive('d')).toBe(true);
    expect(await other.revive('d')).toBe(false);
    expect(await other.revive('nope')).toBe(false);
    expect(await a.get('d')).toMatchObject({ state: 'pending', attempts: 0 });
    expect(await a.dead()).toEqual([]);
    expect(await a.depth()).toBe(1);
  });

  it('hands each job to one consumer only, in stream order, including jobs added before it started', async () => {
    const prefix = freshPrefix();
    const writer = journal(prefix);
    for (let i = 0; i < 5; i++) await writer.add(job(`early-${i}`));
    const one = collect(journal(prefix));
    const two = collect(journal(prefix));
    for (let i = 0; i < 25; i++) await writer.add(job(`late-${i}`));
    await until(() => one.length + two.length === 30);
    await new Promise((r) => setTimeout(r, 200));
    const ids = [...one, ...two].map((j) => j.id);
    expect(new Set(ids).size).toBe(30);
    // Each consumer sees its share in the order the jobs were added.
    const order = (handed: DeliveryJob[]) => handed.map((j) => j.createdAt);
    expect(order(one)).toEqual([...order(one)].sort((x, y) => x - y));
  });

  it('claims the jobs a dead consumer left pending, attempts kept, and not those of a live one', async () => {
    const prefix = freshPrefix();
    const writer = journal(prefix);
    const dying = journal(prefix);
    const handedToDying = collect(dying);
    for (let i = 0; i < 4; i++) await writer.add(job(`c-${i}`));
    await until(() => handedToDying.length === 4);
    await writer.attempted('c-0', 1, 'refused');
    await dying.close(); // its entries stay pending under its consumer name, as after a SIGKILL

    // A claim idle time of seconds, not the 300 ms the other tests use: a live consumer's heartbeat
    // (every third of it) must reach Redis in time however late a loaded machine runs its timer.
    const claimIdleMs = 2_000;
    const live = journal(prefix, { claimIdleMs });
    const handedToLive = collect(live);
    const survivor = journal(prefix, { claimIdleMs });
    const handedToSurvivor = collect(survivor);
    await until(() => handedToLive.length + handedToSurvivor.length === 4);
    const claimed = [...handedToLive, ...handedToSurvivor];
    expect(claimed.map((j) => j.id).sort()).toEqual(['c-0', 'c-1', 'c-2', 'c-3']);
    expect(claimed.find((j) => j.id === 'c-0')).toMatchObject({ attempts: 1, lastError: 'refused' });

    // Held well past the idle time by live consumers, heartbeats keep them from being claimed again.
    await new Promise((r) => setTimeout(r, 1.5 * claimIdleMs));
    expect(handedToLive.length + handedToSurvivor.length).toBe(4);
    for (const j of claimed) await writer.done(j.id);
    expect(await writer.depth()).toBe(0);
    const pending = (await admin.xpending(`${prefix}:stream`, 'deliverers')) as [number, ...unknown[]];
    expect(pending[0]).toBe(0);
  });

  it('hands a released job out again once idle (a journal error mid-attempt loses nothing)', async () => {
    const prefix = freshPrefix();
    const a = journal(prefix);
    const handed = collect(a);
    await a.add(job('r'));
    await until(() => handed.length === 1);
    a.release('r');
    await until(() => handed.length === 2);
    expect(handed.map((j) => j.id)).toEqual(['r', 'r']);
  });

  it('rejects an add when Redis cannot be reached (the intake answers 503, v2 retries)', async () => {
    const gone = await startRedis();
    await gone.close();
    const j = new RedisJournal({ url: gone.url, keyPrefix: freshPrefix() });
    open.push(j);
    const started = Date.now();
    await expect(j.add(job('lost'))).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5_000);

    const dispatcher = new Dispatcher(j, { maxAttempts: 3, deadlineMs: 1_000, backoffMs: 10, perReceiverConcurrency: 1 });
    const intake = createWebhookIntake({
      secrets: ['intake-secret-token'],
      maxAgeMs: 300_000,
      subscriptions: [{ api_key: 'k', url: 'http://r.example/hook', format: 'status' }],
      dispatcher,
    });
    const body = JSON.stringify({
      event: 'meeting.ended',
      event_ts: 1,
      payload: { account_id: 'a', object: { id: 1, uuid: 'u', host_id: 'h' } },
    });
    const send = () => intake.request('/webhooks/v2', { method: 'POST', headers: signedHeaders('intake-secret-token', body), body });
    expect((await send()).status).toBe(503);
    // Refused unjournaled, the same signed request is not taken for a replay when v2 sends it again.
    expect((await send()).status).toBe(503);
  });

  it('re-reads its own pending entries at once when restarted under the same consumer name', async () => {
    const prefix = freshPrefix();
    const first = journal(prefix, { consumer: 'gw-1', claimIdleMs: 3_600_000 });
    const handed = collect(first);
    await first.add(job('own'));
    await until(() => handed.length === 1);
    await first.close();
    const again = collect(journal(prefix, { consumer: 'gw-1', claimIdleMs: 3_600_000 }));
    await until(() => again.length === 1);
    expect(again[0]!.id).toBe('own');
  });
});
