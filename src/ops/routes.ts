import type { Hono } from 'hono';
import type { GatewayMetrics } from './metrics.js';
import { checkReadiness, type ReadinessDeps } from './health.js';
import { mountStatusPage, type StatusDeps } from './status.js';

/** The operator routes: `/metrics` (Prometheus text), `/healthz` (alive), `/readyz` (ready), `/status`; close() stops the status page's history. */
export function mountOpsRoutes(
  root: Hono,
  deps: {
    metrics: GatewayMetrics;
    /** What /metrics answers, when not this process's registry (a cluster worker answers for the whole cluster). */
    render?: () => Promise<{ contentType: string; body: string }>;
    readiness: ReadinessDeps;
    status: Omit<StatusDeps, 'metrics' | 'readiness'>;
  },
): { close(): void } {
  root.get('/healthz', (c) => c.json({ status: 'ok' }));
  root.get('/readyz', async (c) => {
    const readiness = await checkReadiness(deps.readiness);
    return c.json({ status: readiness.ready ? 'ready' : 'not ready', checks: readiness.checks }, readiness.ready ? 200 : 503);
  });
  root.get('/metrics', async (c) => {
    const { contentType, body } = await (deps.render ?? (() => deps.metrics.render()))();
    return c.body(body, 200, { 'content-type': contentType });
  });
  return mountStatusPage(root, { ...deps.status, metrics: deps.metrics, readiness: deps.readiness });
}
