import { describe, expect, it } from 'vitest';
import { BusiestKeys, OTHER_KEYS } from './busiest-keys.js';
import { keyHash } from './key-hash.js';
import { GatewayMetrics } from './metrics.js';
import { V2 } from '../v2-contract/v2-routes.js';
import type { V1CallRecord } from '../v1-steps/observe.js';
import { parsePrometheusText } from '../../test/support/prometheus.js';

function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('BusiestKeys', () => {
  it('gives free slots to proven keys only, and every other call the other label', () => {
    const keys = new BusiestKeys({ slots: 2 });
    expect(keys.callLabel('a', false)).toBe(OTHER_KEYS);
    expect(keys.callLabel(undefined, true)).toBe(OTHER_KEYS);
    expect(keys.callLabel('a', true)).toBe(keyHash('a'));
    // Once it holds a slot, a key's calls are its own, proven or not.
    expect(keys.callLabel('a', false)).toBe(keyHash('a'));
    expect(keys.callLabel('b', true)).toBe(keyHash('b'));
    expect(keys.callLabel('c', true)).toBe(OTHER_KEYS);
    expect(keys.holderCount).toBe(2);
    expect(keys.labelOf('b')).toBe(keyHash('b'));
    expect(keys.labelOf('c')).toBe(OTHER_KEYS);
  });

  it('hands slots to the busiest keys of the last window, and says whose series to remove', () => {
    const time = clock();
    const keys = new BusiestKeys({ slots: 2, windowMs: 1_000, now: time.now });
    const changes: { lost: string[]; won: string[] }[] = [];
    keys.onRebalance((change) => changes.push(change));
    keys.callLabel('quiet-1', true);
    keys.callLabel('quiet-2', true);
    for (let i = 0; i < 50; i++) expect(keys.callLabel('busy', true)).toBe(OTHER_KEYS);
    for (let i = 0; i < 5; i++) keys.callLabel('quiet-2', true);
    time.advance(1_000);
    expect(keys.callLabel('busy', true)).toBe(keyHash('busy'));
    expect(keys.labelOf('quiet-2')).toBe(keyHash('quiet-2'));
    expect(keys.labelOf('quiet-1')).toBe(OTHER_KEYS);
    expect(changes).toEqual([{ lost: [keyHash('quiet-1')], won: [keyHash('busy')] }]);
  });

  it('keeps its holders when nobody else called, and at equal counts', () => {
    const time = clock();
    const keys = new BusiestKeys({ slots: 1, windowMs: 1_000, now: time.now });
    keys.callLabel('first', true);
    time.advance(1_000);
    keys.rebalanceIfDue();
    expect(keys.labelOf('first')).toBe(keyHash('first'));
    keys.callLabel('first', true);
    keys.callLabel('second', true);
    time.advance(1_000);
    keys.rebalanceIfDue();
    expect(keys.labelOf('first')).toBe(keyHash('first'));
  });

  it('remembers a bounded number of contenders, and a heavy one still wins', () => {
    const time = clock();
    const keys = new BusiestKeys({ slots: 1, windowMs: 1_000, candidates: 10, now: time.now });
    keys.callLabel('holder', true);
    for (let i = 0; i < 5_000; i++) {
      keys.callLabel(`drive-by-${i}`, true);
      if (i % 10 === 0) keys.callLabel('heavy', true);
    }
    time.advance(1_000);
    keys.rebalanceIfDue();
    expect(keys.labelOf('heavy')).toBe(keyHash('heavy'));
  });
});

describe('v1gate_v1_calls_by_key_total', () => {
  const record = (apiKey: string, v2Status: number | undefined): V1CallRecord => ({
    requestId: 'r',
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    spanId: '00f067aa0ba902b7',
    startedAt: new Date(),
    method: 'POST',
    rawPath: '/v1/user/get',
    endpoint: '/user/get',
    apiKey,
    params: {},
    errorCode: undefined,
    pairProven: v2Status !== undefined && v2Status !== 401,
    answer: {},
    dataType: 'JSON',
    ms: 1,
    v2Calls: v2Status === undefined ? [] : [{ route: V2.users.get, method: 'GET', path: '/users/x', undo: false, status: v2Status, ms: 1 }],
  });

  it('has at most N+1 series after thousands of distinct keys, proven or not, across rebalances', async () => {
    const time = clock();
    const top = 5;
    const metrics = new GatewayMetrics({
      perKey: { top, windowMs: 1_000, now: time.now },
      processMetrics: false,
    });
    let calls = 0;
    let unproven = 0;
    const seriesAfterScrape = async () =>
      parsePrometheusText((await metrics.render()).body).filter((s) => s.name === 'v1gate_v1_calls_by_key_total');
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 1_000; i++) {
        // Proven (v2 answered 200), refused (401), and no v2 call at all.
        metrics.observer(record(`key-${round}-${i}`, [200, 401, undefined][i % 3]));
        calls++;
        if (i % 3 !== 0) unproven++;
      }
      // A few busy proven keys per round, which the rebalance should find.
      for (let n = 0; n < 40; n++) {
        for (const busy of [0, 1, 2]) {
          metrics.observer(record(`busy-${round}-${busy}`, 200));
          calls++;
        }
      }
      time.advance(1_000);
      const samples = await seriesAfterScrape();
      expect(samples.length).toBeLessThanOrEqual(top + 1);
      // Every call was counted once; a key that lost its slot took its series (and count) with it.
      expect(samples.reduce((sum, s) => sum + s.value, 0)).toBeLessThanOrEqual(calls);
      expect(samples.find((s) => s.labels.key_hash === OTHER_KEYS)!.value).toBeGreaterThanOrEqual(unproven);
      const labels = samples.map((s) => s.labels.key_hash);
      for (const busy of [0, 1, 2]) expect(labels).toContain(keyHash(`busy-${round}-${busy}`));
      // Refused and unchecked keys never had a series.
      for (let i = 0; i < 1_000; i++) if (i % 3 !== 0) expect(labels).not.toContain(keyHash(`key-${round}-${i}`));
    }
  });
});
