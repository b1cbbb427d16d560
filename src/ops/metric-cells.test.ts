import fc from 'fast-check';
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { CellCounter, CellHistogram } from './metric-cells.js';

/**
 * The cells must be invisible to whoever scrapes: for any sequence of increments and
 * observations, the exposition text and `get()` equal prom-client's own for the same sequence.
 */

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 1];
const endpoint = fc.constantFrom('/user/get', '/meeting/create', 'unmatched', 'a "quoted" \\ path\n');
const code = fc.constantFrom('ok', '300', '1001');
const value = fc.oneof(fc.double({ min: 0, max: 2, noNaN: true }), fc.constantFrom(0, 0.005, 0.01, 1, 5, 1e9));
const step = fc.oneof(
  fc.record({ kind: fc.constant('inc' as const), endpoint, code, by: fc.constantFrom(undefined, 0, 1, 2.5) }),
  fc.record({ kind: fc.constant('observe' as const), endpoint, value }),
  fc.record({ kind: fc.constant('remove' as const), endpoint, code }),
);

function pairOf(cells: boolean) {
  const registry = new Registry();
  const countConfig = { name: 'x_calls_total', help: 'calls', labelNames: ['endpoint', 'code'] as const, registers: [registry] };
  const timeConfig = { name: 'x_seconds', help: 'time', labelNames: ['endpoint'] as const, buckets: BUCKETS, registers: [registry] };
  const counter = cells ? new CellCounter(countConfig) : new Counter(countConfig);
  const histogram = cells ? new CellHistogram(timeConfig) : new Histogram(timeConfig);
  return { registry, counter, histogram };
}

type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

/** Plays `steps` on prom-client's metrics, and on the cells both through prom-client's API and through kept cells. */
async function scrapes(steps: readonly Step[]) {
  const plain = pairOf(false);
  const viaApi = pairOf(true);
  const viaCells = pairOf(true);
  for (const s of steps) {
    if (s.kind === 'inc') {
      plain.counter.inc({ endpoint: s.endpoint, code: s.code }, s.by);
      viaApi.counter.labels(s.endpoint, s.code).inc(s.by);
      (viaCells.counter as CellCounter<'endpoint' | 'code'>).cell({ endpoint: s.endpoint, code: s.code }).inc(s.by);
    } else if (s.kind === 'observe') {
      plain.histogram.observe({ endpoint: s.endpoint }, s.value);
      viaApi.histogram.labels(s.endpoint).observe(s.value);
      (viaCells.histogram as CellHistogram<'endpoint'>).cell({ endpoint: s.endpoint }).observe(s.value);
    } else {
      for (const { counter, histogram } of [plain, viaApi, viaCells]) {
        counter.remove({ endpoint: s.endpoint, code: s.code });
        histogram.remove(s.endpoint);
      }
    }
  }
  return Promise.all(
    [plain, viaApi, viaCells].map(async ({ registry }) => ({ text: await registry.metrics(), json: await registry.getMetricsAsJSON() })),
  );
}

describe('metric cells', () => {
  it('expose what prom-client exposes, for any sequence of increments, observations and removals', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 60 }), async (steps) => {
        const [plain, viaApi, viaCells] = await scrapes(steps);
        expect(viaApi).toEqual(plain);
        expect(viaCells).toEqual(plain);
      }),
      { numRuns: 300 },
    );
  });

  it('shows a series only once it was fed, and counts a value above every bucket under +Inf only', async () => {
    const [plain, , viaCells] = await scrapes([{ kind: 'observe', endpoint: '/user/get', value: 7 }]);
    expect(viaCells!.text).toBe(plain!.text);
    expect(viaCells!.text).toContain('x_seconds_bucket{le="1",endpoint="/user/get"} 0');
    expect(viaCells!.text).toContain('x_seconds_bucket{le="+Inf",endpoint="/user/get"} 1');
    expect(viaCells!.text).not.toContain('x_calls_total{');
  });

  it('refuses what prom-client refuses: a label it was not given, a value that is no number, a negative increment', () => {
    const { counter, histogram } = pairOf(true);
    expect(() => counter.inc({ endpoint: 'a', nope: 'b' } as never)).toThrow(/not included in initial labelset/);
    expect(() => histogram.observe({ endpoint: 'a' }, NaN)).toThrow(TypeError);
    expect(() => counter.inc({ endpoint: 'a', code: 'ok' }, -1)).toThrow();
  });

  it('runs its collect hook before each scrape, as prom-client does', async () => {
    const registry = new Registry();
    let collected = 0;
    new CellCounter({
      name: 'y_total',
      help: 'y',
      labelNames: ['k'],
      registers: [registry],
      collect() {
        collected++;
        this.inc({ k: 'v' });
      },
    });
    expect(await registry.metrics()).toContain('y_total{k="v"} 1');
    expect(collected).toBe(1);
  });
});
