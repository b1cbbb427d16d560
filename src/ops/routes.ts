import type { Hono, MiddlewareHandler } from 'hono';
import { oneAtATime } from '../shared/one-at-a-time.js';
import type { PrivateAccess } from '../shared/private-access.js';
import { prefixOf } from '../shared/route-owners.js';
import type { GatewayMetrics } from './metrics.js';
import { checkReadiness, type ReadinessDeps } from './health.js';
import { mountStatusPage, type StatusDeps } from './status.js';
import { upstreamUpMetric } from './upstream-metric.js';

/**
 * The operator routes: `/metrics` (Prometheus text), `/healthz` (alive), `/readyz` (ready), `/status`;
 * close() stops the status page's history. /status is always a private page; /metrics is one when
 * METRICS_TOKEN is set (else a scraper anywhere reads it, as Prometheus in a cluster does by pod address).
 * /readyz answers 503 only when this process cannot answer (draining, or its limiter store down and
 * failing closed); an unreachable v2 is reported in its body and in `v1gate_upstream_up`.
 */
export function mountOpsRoutes(
  root: Hono,
  deps: {
    metrics: GatewayMetrics;
    /** What /metrics answers, when not this process's registry (a cluster worker answers for the whole cluster). */
    render?: () => Promise<{ contentType: string; body: string }>;
    readiness: ReadinessDeps;
    /** Who may see the private pages. */
    access: PrivateAccess;
    /** Set: /metrics asks for it as a bearer token, as /status asks for STATUS_TOKEN. */
    metricsToken: string | undefined;
    status: Omit<StatusDeps, 'metrics' | 'readiness' | 'access'>;
  },
): { close(): void } {
  deps.metrics.registerCollector(upstreamUpMetric(deps.readiness));
  root.get(prefixOf('healthz'), (c) => c.json({ status: 'ok' }));
  root.get(prefixOf('readyz'), async (c) => {
    const readiness = await checkReadiness(deps.readiness);
    return c.json({ status: readiness.ready ? 'ready' : 'not ready', checks: readiness.checks }, readiness.ready ? 200 : 503);
  });
  const open: MiddlewareHandler = (_c, next) => next();
  const metricsGuard =
    deps.metricsToken === undefined ? open : deps.access.guard({ kind: 'token', token: deps.metricsToken, name: 'METRICS_TOKEN' });
  // Anyone may ask for /metrics where METRICS_TOKEN is not set: a flood of scrapes shares one render at a time.
  const render = oneAtATime(deps.render ?? (() => deps.metrics.render()));
  root.get(prefixOf('metrics'), metricsGuard, async (c) => {
    const { contentType, body } = await render();
    return c.body(body, 200, { 'content-type': contentType });
  });
  return mountStatusPage(root, { ...deps.status, metrics: deps.metrics, readiness: deps.readiness, access: deps.access });
}
