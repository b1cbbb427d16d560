import type { Metric } from 'prom-client';
import type { ShadowStats } from '../compare/shadow.js';
import type { CutoverState } from '../compare/cutover.js';
import { describeCutover } from '../compare/cutover-words.js';
import { statsMetric } from './metrics.js';
import type { StatusSection } from './status-sections.js';

const CUTOVER_STATES: readonly CutoverState[] = ['shadowing', 'promoted', 'serving'];

/** Shadow mode's counters and each endpoint's cut-over state, read from its `stats()` at scrape time (the forwarding path pays nothing). */
export function shadowMetrics(stats: () => ShadowStats): Metric[] {
  return [
    statsMetric('counter', 'v1gate_shadow_calls_total', 'calls forwarded to the primary v1 and compared', ['outcome'], () => {
      const s = stats();
      return [
        { labels: { outcome: 'forwarded' }, value: s.forwarded },
        { labels: { outcome: 'compared' }, value: s.compared },
        { labels: { outcome: 'mismatched' }, value: s.mismatchedCalls },
        { labels: { outcome: 'dropped' }, value: s.dropped },
        { labels: { outcome: 'limited' }, value: s.limited },
        { labels: { outcome: 'error' }, value: s.errors },
        { labels: { outcome: 'interrupted' }, value: s.interrupted },
        { labels: { outcome: 'too_large' }, value: s.tooLarge },
        { labels: { outcome: 'served' }, value: s.served ?? 0 },
      ];
    }),
    // Endpoint and field names come from v1 answers' keys: bounded by the shadow's own row cap.
    statsMetric(
      'counter',
      'v1gate_shadow_mismatches_total',
      'real field differences between the primary v1 and v1gate',
      ['endpoint', 'field'],
      () => stats().mismatches.map((m) => ({ labels: { endpoint: m.endpoint, field: m.field }, value: m.count })),
    ),
    // Endpoints are v1gate's own (the registry): bounded.
    statsMetric(
      'gauge',
      'v1gate_shadow_endpoint_state',
      "each endpoint's cut-over state: 1 for the state it is in (shadowing: the primary answers; promoted, serving: v1gate does)",
      ['endpoint', 'state'],
      () =>
        (stats().cutover?.endpoints ?? []).flatMap((e) =>
          CUTOVER_STATES.map((state) => ({ labels: { endpoint: e.endpoint, state }, value: e.state === state ? 1 : 0 })),
        ),
    ),
    statsMetric('gauge', 'v1gate_shadow_match_streak', 'compared calls in a row with no real difference, per endpoint', ['endpoint'], () =>
      (stats().cutover?.endpoints ?? [])
        .filter((e) => e.state !== 'serving')
        .map((e) => ({ labels: { endpoint: e.endpoint }, value: e.streak })),
    ),
  ];
}

/** The status page's cut-over section (src/ops/status.ts renders it after shadow mode): which endpoints v1gate answers, and why. */
export function cutoverSection(cutover: ShadowStats['cutover']): StatusSection | undefined {
  if (!cutover) return undefined;
  const { promoteAfter, endpoints } = cutover;
  const byState = (state: CutoverState) => endpoints.filter((e) => e.state === state).length;
  const answered = byState('promoted') + byState('serving');
  const demoted = endpoints.filter((e) => e.state === 'shadowing' && e.lastDifference).length;
  return {
    id: 'cutover',
    title: 'Cut-over',
    level: demoted > 0 ? 'warn' : answered > 0 ? 'ok' : 'idle',
    summary:
      promoteAfter > 0
        ? `v1gate answers ${answered} endpoint${answered === 1 ? '' : 's'} itself; a read is promoted after ${promoteAfter} compared calls in a row match, and demoted by one real difference.`
        : `v1gate answers ${answered} endpoint${answered === 1 ? '' : 's'} itself; reads are not promoted (SHADOW_PROMOTE_AFTER is 0).`,
    rows: endpoints.map((e) => ({
      label: e.endpoint,
      value: describeCutover(e, promoteAfter),
      level: e.state === 'shadowing' ? (e.lastDifference ? 'warn' : 'idle') : 'ok',
    })),
  };
}
