import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GetCoalescer, type SharedGet } from './coalesce.js';

/**
 * The coalescer's bookkeeping against a model of what it promises: a GET offered is found until it
 * is forgotten or its key writes, and nothing else is. Its maps are its own (an emptied key's map
 * is kept for the key's next GET while few keys have one); these hold that to the plain rule.
 */

const apiKeys = fc.constantFrom('a', 'b', 'c');
const keys = fc.constantFrom('p /x', 'p /y', 'q /x');
const ops = fc.array<
  | { kind: 'offer'; apiKey: string; key: string }
  | { kind: 'forget'; apiKey: string; key: string; which: number }
  | { kind: 'wrote'; apiKey: string }
  | { kind: 'find'; apiKey: string; key: string }
>(
  fc.oneof(
    fc.record({ kind: fc.constant('offer' as const), apiKey: apiKeys, key: keys }),
    fc.record({ kind: fc.constant('forget' as const), apiKey: apiKeys, key: keys, which: fc.nat(20) }),
    fc.record({ kind: fc.constant('wrote' as const), apiKey: apiKeys }),
    fc.record({ kind: fc.constant('find' as const), apiKey: apiKeys, key: keys }),
  ),
  { maxLength: 60 },
);

const sharedGet = (): SharedGet => ({ outcome: Promise.resolve(undefined), text: undefined });

describe('the GET coalescer', () => {
  it('finds a GET offered until it is forgotten or its key writes, over any order of offers, forgets, writes and finds', () => {
    fc.assert(
      fc.property(ops, (sequence) => {
        const coalescer = new GetCoalescer();
        const model = new Map<string, SharedGet>();
        const offered: { apiKey: string; key: string; shared: SharedGet }[] = [];
        for (const op of sequence) {
          const id = `${op.apiKey}\n${'key' in op ? op.key : ''}`;
          if (op.kind === 'offer') {
            const shared = sharedGet();
            offered.push({ apiKey: op.apiKey, key: op.key, shared });
            coalescer.offer(op.apiKey, op.key, shared);
            model.set(id, shared);
          } else if (op.kind === 'forget') {
            const earlier = offered[op.which % Math.max(1, offered.length)];
            if (!earlier) continue;
            coalescer.forget(earlier.apiKey, earlier.key, earlier.shared);
            const earlierId = `${earlier.apiKey}\n${earlier.key}`;
            if (model.get(earlierId) === earlier.shared) model.delete(earlierId);
          } else if (op.kind === 'wrote') {
            coalescer.wrote(op.apiKey);
            for (const id of [...model.keys()]) if (id.startsWith(`${op.apiKey}\n`)) model.delete(id);
          } else {
            expect(coalescer.find(op.apiKey, op.key)).toBe(model.get(id));
          }
        }
        for (const { apiKey, key } of offered) expect(coalescer.find(apiKey, key)).toBe(model.get(`${apiKey}\n${key}`));
        expect(coalescer.size).toBe(model.size);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps the maps of few keys once emptied, and no more than that many of many keys seen once', () => {
    const coalescer = new GetCoalescer();
    const inFlight = (coalescer as unknown as { inFlight: Map<string, unknown> }).inFlight;
    const once = sharedGet();
    coalescer.offer('steady', 'p /x', once);
    coalescer.forget('steady', 'p /x', once);
    // One GET at a time: its key's map stays for the next, and finds nothing of the last.
    expect(inFlight.size).toBe(1);
    expect(coalescer.find('steady', 'p /x')).toBeUndefined();
    for (let i = 0; i < 5_000; i++) {
      const shared = sharedGet();
      coalescer.offer(`key${i}`, 'p /x', shared);
      coalescer.forget(`key${i}`, 'p /x', shared);
    }
    expect(inFlight.size).toBeLessThanOrEqual(1_025);
    expect(coalescer.size).toBe(0);
    // A write drops its key's map, kept or not.
    coalescer.wrote('steady');
    expect(inFlight.has('steady')).toBe(false);
  });
});
