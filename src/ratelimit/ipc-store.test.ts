import { describe, expect, it } from 'vitest';
import { leaseSourceContract } from '../../test/ratelimit/bucket-store-contract.js';
import { channelPair, ipcWorkerOf } from '../../test/ratelimit/ipc-channel.js';
import { IpcRpcClient } from '../shared/ipc-rpc.js';
import type { BucketRef } from './bucket-store.js';
import { rateLimitConfig } from './config.js';
import { createRateLimiters } from './index.js';
import { IpcBucketStore } from './ipc-store.js';
import { MemoryBucketStore } from './memory-store.js';

leaseSourceContract(
  'IpcBucketStore over a primary MemoryBucketStore',
  (clock) => ipcWorkerOf(new MemoryBucketStore({ now: () => clock.now })).store,
);

const refs: BucketRef[] = [{ key: 'in:{k:general}:second', spec: { ratePerSecond: 0.001, burst: 5 } }];

describe('IpcBucketStore', () => {
  it("two workers taking at once from the primary's store admit the burst exactly, not twice", async () => {
    const primaryStore = new MemoryBucketStore();
    const workers = [0, 1].map(() => ipcWorkerOf(primaryStore).store);
    const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => workers[i % 2]!.take(refs)));
    expect(outcomes.filter((o) => o.allowed)).toHaveLength(5);
    expect(outcomes.find((o) => !o.allowed)!.retryAfterMs).toBeGreaterThan(0);
  });

  it("a pause from one worker refuses the other's takes", async () => {
    const primaryStore = new MemoryBucketStore();
    await ipcWorkerOf(primaryStore).store.pause(refs, 5_000);
    expect((await ipcWorkerOf(primaryStore).store.take(refs)).allowed).toBe(false);
  });

  it('rejects when the primary does not answer in time (the failure policy then decides)', async () => {
    const [workerEnd] = channelPair();
    await expect(new IpcBucketStore(new IpcRpcClient(workerEnd), 50).take(refs)).rejects.toThrow(/no answer within 50 ms/);
  });
});

describe("a worker's limiters over IPC (createRateLimiters with a shared store)", () => {
  const CHECKS = 500;
  // ×100: the general class refills 1 000 tokens a second, so a 100 ms lease holds k = 100.
  async function checkBusyKey(leaseMs: number) {
    const worker = ipcWorkerOf(new MemoryBucketStore());
    const limiters = createRateLimiters(rateLimitConfig({ scale: 100, leaseMs }), { shared: worker.store });
    let admitted = 0;
    for (let i = 0; i < CHECKS; i++) if ((await limiters.inbound.check('busy', '/v1/user/get')).allowed) admitted++;
    await limiters.close();
    return { admitted, calls: worker.calls };
  }

  it('leases: a busy key costs one round trip per half lease, not one per take', async () => {
    const { admitted, calls } = await checkBusyKey(100);
    expect(admitted).toBe(CHECKS);
    expect(calls['ratelimit.take'] ?? 0).toBe(0);
    // k = 100, topped up once half is spent: about one lease call per 50 checks.
    expect(calls['ratelimit.lease']).toBeGreaterThan(0);
    expect(calls['ratelimit.lease']).toBeLessThanOrEqual(CHECKS / 25);
  });

  it('RATE_LIMIT_LEASE_MS=0: one round trip per take, as before leases', async () => {
    const { admitted, calls } = await checkBusyKey(0);
    expect(admitted).toBe(CHECKS);
    expect(calls).toEqual({ 'ratelimit.take': CHECKS });
  });
});
