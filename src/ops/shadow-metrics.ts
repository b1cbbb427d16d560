import type { Metric } from 'prom-client';
import type { ShadowStats } from '../compare/shadow.js';
import { statsCounter } from './metrics.js';

/** Shadow mode's counters, read from its `stats()` at scrape time (the forwarding path pays nothing). */
export function shadowMetrics(stats: () => ShadowStats): Metric[] {
  return [
    statsCounter('v1gate_shadow_calls_total', 'calls forwarded to the primary v1 and compared', ['outcome'], () => {
      const s = stats();
      return [
        { labels: { outcome: 'forwarded' }, value: s.forwarded },
        { labels: { outcome: 'compared' }, value: s.compared },
        { labels: { outcome: 'mismatched' }, value: s.mismatchedCalls },
        { labels: { outcome: 'dropped' }, value: s.dropped },
        { labels: { outcome: 'limited' }, value: s.limited },
        { labels: { outcome: 'error' }, value: s.errors },
        { labels: { outcome: 'interrupted' }, value: s.interrupted },
      ];
    }),
    // Endpoint and field names come from v1 answers' keys: bounded by the shadow's own row cap.
    statsCounter('v1gate_shadow_mismatches_total', 'real field differences between the primary v1 and v1gate', ['endpoint', 'field'], () =>
      stats().mismatches.map((m) => ({ labels: { endpoint: m.endpoint, field: m.field }, value: m.count })),
    ),
  ];
}
