import { describe, expect, it } from 'vitest';
import { GatewayMetrics, quantileOfBuckets, statsMetric } from './metrics.js';
import { parsePrometheusText, sampleValue } from '../../test/support/prometheus.js';

describe('collectors registered by other parts', () => {
  it('are read at each scrape', async () => {
    const metrics = new GatewayMetrics({ perKey: undefined, processMetrics: false });
    let journal = 3;
    metrics.registerCollector(
      statsMetric('gauge', 'v1gate_webhook_journal_depth', 'Deliveries waiting.', ['state'], () => [
        { labels: { state: 'pending' }, value: journal },
      ]),
    );
    expect(sampleValue(parsePrometheusText((await metrics.render()).body), 'v1gate_webhook_journal_depth', { state: 'pending' })).toBe(3);
    journal = 7;
    expect(sampleValue(parsePrometheusText((await metrics.render()).body), 'v1gate_webhook_journal_depth', { state: 'pending' })).toBe(7);
  });

  it('are exposed as the type asked for, a running total as a counter and a level as a gauge', async () => {
    const metrics = new GatewayMetrics({ perKey: undefined, processMetrics: false });
    let delivered = 2;
    metrics.registerCollector(
      statsMetric('counter', 'v1gate_webhook_deliveries_total', 'Delivered.', [], () => [{ labels: {}, value: delivered }]),
    );
    metrics.registerCollector(statsMetric('gauge', 'v1gate_queue_depth', 'Waiting.', [], () => [{ labels: {}, value: 4 }]));
    const first = (await metrics.render()).body;
    expect(first).toContain('# TYPE v1gate_webhook_deliveries_total counter');
    expect(first).toContain('# TYPE v1gate_queue_depth gauge');
    expect(sampleValue(parsePrometheusText(first), 'v1gate_webhook_deliveries_total')).toBe(2);
    // Each scrape shows the snapshot's total, not the sum of every scrape's.
    delivered = 5;
    expect(sampleValue(parsePrometheusText((await metrics.render()).body), 'v1gate_webhook_deliveries_total')).toBe(5);
    expect(sampleValue(parsePrometheusText((await metrics.render()).body), 'v1gate_webhook_deliveries_total')).toBe(5);
  });
});

describe('p99 from histogram buckets', () => {
  it('interpolates inside the bucket as histogram_quantile does', () => {
    const buckets = [
      { le: 0.1, count: 50 },
      { le: 0.2, count: 100 },
      { le: Infinity, count: 100 },
    ];
    expect(quantileOfBuckets(0.99, buckets)).toBeCloseTo(0.198, 6);
    expect(quantileOfBuckets(0.5, buckets)).toBeCloseTo(0.1, 6);
    expect(
      quantileOfBuckets(0.99, [
        { le: 0.1, count: 0 },
        { le: Infinity, count: 0 },
      ]),
    ).toBeUndefined();
    // Ranks beyond the last finite bound answer that bound.
    expect(
      quantileOfBuckets(0.99, [
        { le: 1, count: 1 },
        { le: Infinity, count: 10 },
      ]),
    ).toBe(1);
  });
});
