import { describe, expect, it } from 'vitest';
import type { BucketRef, BucketStore, TakeOutcome } from './bucket-store.js';
import { FailoverBucketStore } from './failure-policy.js';
import { MemoryBucketStore } from './memory-store.js';
import { settlesBefore } from '../../test/support/timing.js';

/** A shared store whose behaviour the test switches: working, failing, or hanging. */
class ScriptedStore implements BucketStore {
  mode: 'ok' | 'error' | 'hang' = 'ok';
  calls = 0;
  private readonly inner = new MemoryBucketStore();
  take(refs: readonly BucketRef[], cost?: number): Promise<TakeOutcome> {
    this.calls++;
    if (this.mode === 'error') return Promise.reject(new Error('ECONNREFUSED'));
    if (this.mode === 'hang') return new Promise(() => {});
    return this.inner.take(refs, cost);
  }
  pause(refs: readonly BucketRef[], ms: number): Promise<void> {
    if (this.mode !== 'ok') return Promise.reject(new Error('down'));
    return this.inner.pause(refs, ms);
  }
  async close() {}
}

const ref: BucketRef = { key: 'k', spec: { ratePerSecond: 1, burst: 2 } };

function setup(policy: 'open' | 'closed', now = { t: 1_000 }) {
  const shared = new ScriptedStore();
  const logs: string[] = [];
  const store = new FailoverBucketStore(shared, {
    policy,
    timeoutMs: 30,
    logger: { warn: (m) => logs.push(m) },
    logIntervalMs: 10_000,
    retryIntervalMs: 500,
    now: () => now.t,
  });
  return { shared, store, logs, now };
}

describe('FailoverBucketStore', () => {
  it('uses the shared store while it answers', async () => {
    const { shared, store, logs } = setup('closed');
    expect((await store.take([ref])).allowed).toBe(true);
    expect(shared.calls).toBe(1);
    expect(store.stats).toEqual({ failures: 0, degraded: false });
    expect(logs).toEqual([]);
  });

  it("fail-open: judges by this process's own buckets while the shared store errors", async () => {
    const { shared, store } = setup('open');
    shared.mode = 'error';
    const results = [await store.take([ref]), await store.take([ref]), await store.take([ref])];
    // Still limited, by the local bucket (burst 2), not waved through.
    expect(results.map((r) => r.allowed)).toEqual([true, true, false]);
    expect(store.stats.degraded).toBe(true);
  });

  it('fail-closed: refuses while the shared store errors', async () => {
    const { shared, store } = setup('closed');
    shared.mode = 'error';
    const refused = await store.take([ref]);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBe(1000);
  });

  it('counts a slow answer as a failure (timeout)', async () => {
    const { shared, store } = setup('closed');
    shared.mode = 'hang';
    const taking = store.take([ref]);
    // Given up at its own 30 ms timeout: before a 500 ms timer started beside it fires, however late both run.
    expect(await settlesBefore(taking, 500)).toBe(true);
    const outcome = await taking;
    expect(outcome.allowed).toBe(false);
    expect(store.stats.failures).toBe(1);
  });

  it('after a failure leaves the shared store alone for the retry interval, then tries it again', async () => {
    const { shared, store, now } = setup('open');
    shared.mode = 'error';
    await store.take([ref]);
    await store.take([ref]);
    await store.take([ref]);
    expect(shared.calls).toBe(1);
    shared.mode = 'ok';
    now.t += 500;
    expect((await store.take([ref])).allowed).toBe(true);
    expect(shared.calls).toBe(2);
    expect(store.stats.degraded).toBe(false);
  });

  it('logs an outage once per interval with the count of affected requests, and its end', async () => {
    const { shared, store, logs, now } = setup('open');
    shared.mode = 'error';
    for (let i = 0; i < 50; i++) {
      await store.take([ref]);
      now.t += 100;
    }
    // 5 s of failures: one report at the start only.
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/shared store unavailable \(ECONNREFUSED\).*fail-open.*1 request/);
    for (let i = 0; i < 60; i++) {
      await store.take([ref]);
      now.t += 100;
    }
    expect(logs).toHaveLength(2);
    expect(logs[1]).toMatch(/still failing|ECONNREFUSED/);
    expect(logs[1]).toMatch(/\d{2} request\(s\) affected/);
    shared.mode = 'ok';
    now.t += 1_000;
    await store.take([ref]);
    expect(logs).toHaveLength(3);
    expect(logs[2]).toMatch(/answering again/);
  });

  it('keeps a pause in the local buckets too, so it outlives a switch to them', async () => {
    const { shared, store } = setup('open');
    await store.pause([ref], 5_000);
    shared.mode = 'error';
    const outcome = await store.take([ref]);
    expect(outcome.allowed).toBe(false);
    expect(outcome.retryAfterMs).toBeGreaterThan(4_000);
  });
});
