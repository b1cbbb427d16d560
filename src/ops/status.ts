import type { Context, Hono } from 'hono';
import { timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { coverageSummary, type CoverageSummary } from '../translators/coverage.js';
import type { EndpointDefinition } from '../translators/kit/define.js';
import { checkReadiness, type ReadinessDeps } from './health.js';
import type { EndpointRow, GatewayMetrics } from './metrics.js';
import { STATUS_PAGE_HTML } from './status-page.js';
import { isLoopbackCaller } from '../shared/loopback.js';

/**
 * `/status`: one page an operator reads at a glance, and `/status/data`, the JSON it polls. Every
 * number comes from the registry behind /metrics, so the page and Prometheus never disagree.
 * Protected by STATUS_TOKEN (bearer header or `?token=`) when set; loopback callers only otherwise.
 */

export interface StatusDeps {
  metrics: GatewayMetrics;
  readiness: ReadinessDeps;
  endpoints: readonly EndpointDefinition[];
  token: string | undefined;
  /** Whether a Redis store is configured at all (else the limiter runs in memory). */
  redisConfigured: boolean;
}

export interface StatusData {
  version: string;
  uptimeSeconds: number;
  now: string;
  upstream: { ok: boolean; detail: string };
  redis: { ok: boolean; detail: string };
  /** False: no REDIS_URL, the limits live in this process's memory. */
  redisConfigured: boolean;
  ready: boolean;
  totals: { calls: number; errors: number };
  endpoints: EndpointRow[];
  collectors: Awaited<ReturnType<GatewayMetrics['collectorValues']>>;
  coverage: CoverageSummary;
}

/** The version in package.json, found by walking up from this module (source and dist/ alike). */
function packageVersion(): string {
  for (const up of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'v1gate' && pkg.version) return pkg.version;
    } catch {
      // not at this level
    }
  }
  return 'unknown';
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Token when one is configured; else only callers on this machine. */
export function statusAllowed(c: Context, token: string | undefined): boolean {
  if (token !== undefined) {
    const bearer = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    const given = bearer ?? c.req.query('token');
    return given !== undefined && sameSecret(given, token);
  }
  return isLoopbackCaller(c);
}

export function mountStatusPage(root: Hono, deps: StatusDeps): void {
  const version = packageVersion();
  const startedAt = Date.now();
  const coverage = coverageSummary(deps.endpoints);

  async function data(): Promise<StatusData> {
    const [readiness, endpoints, collectors] = await Promise.all([
      checkReadiness(deps.readiness),
      deps.metrics.endpointTable(),
      deps.metrics.collectorValues(),
    ]);
    const totals = endpoints.reduce((t, r) => ({ calls: t.calls + r.calls, errors: t.errors + r.errors }), { calls: 0, errors: 0 });
    return {
      version,
      uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      now: new Date().toISOString(),
      upstream: readiness.checks.upstream,
      redis: deps.redisConfigured ? readiness.checks.limiter : { ok: true, detail: 'not configured (limits in memory)' },
      redisConfigured: deps.redisConfigured,
      ready: readiness.ready,
      totals,
      endpoints,
      collectors,
      coverage,
    };
  }

  const refuse = (c: Context) =>
    c.json(
      { error: deps.token === undefined ? 'the status page answers loopback callers only' : 'a valid STATUS_TOKEN is required' },
      deps.token === undefined ? 403 : 401,
    );
  root.get('/status', (c) => (statusAllowed(c, deps.token) ? c.html(STATUS_PAGE_HTML, 200, { 'cache-control': 'no-store' }) : refuse(c)));
  root.get('/status/data', async (c) =>
    statusAllowed(c, deps.token) ? c.json(await data(), 200, { 'cache-control': 'no-store' }) : refuse(c),
  );
}
