import { Gauge, type Metric } from 'prom-client';
import { checkUpstream, type ReadinessDeps } from './health.js';

/**
 * `v1gate_upstream_up`: whether v2 answered the readiness probe (any HTTP status within
 * READY_TIMEOUT_MS). /readyz no longer fails on it (a pod that cannot reach v2 still answers v1's
 * envelope), so this gauge and the V1gateUpstreamDown alert are where an outage shows. Read at
 * scrape time from the probe /readyz shares: a scrape costs v2 at most one request a
 * READY_PROBE_EVERY_MS. Across a cluster's workers the lowest counts: one that cannot reach v2 is down.
 */
export function upstreamUpMetric(readiness: ReadinessDeps): Metric {
  return new Gauge({
    name: 'v1gate_upstream_up',
    help: '1 when the v2 service (V2_BASE_URL) answered the last readiness probe within READY_TIMEOUT_MS, 0 when it did not.',
    registers: [],
    aggregator: 'min',
    async collect() {
      this.set((await checkUpstream(readiness)).ok ? 1 : 0);
    },
  });
}
