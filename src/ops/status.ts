import type { Context, Hono } from 'hono';
import type { ShadowStats } from '../compare/shadow.js';
import { coverageSummary, type CoverageSummary } from '../translators/coverage.js';
import type { EndpointDefinition } from '../translators/kit/define.js';
import type { WebhookStats } from '../webhooks/index.js';
import type { DeliveryJob } from '../webhooks/journal-types.js';
import type { PrivateAccess, PrivateKey } from '../shared/private-access.js';
import { packageVersion } from '../shared/package-version.js';
import { prefixOf } from '../shared/route-owners.js';
import { checkReadiness, type ReadinessDeps } from './health.js';
import type { GatewayMetrics } from './metrics.js';
import { StatusCsrf } from './status-csrf.js';
import { STATUS_PAGE_HTML } from './status-page.js';
import { StatusHistory, type HistoryPoint } from './status-history.js';
import {
  THRESHOLDS,
  limiterSection,
  shadowSection,
  webhookSection,
  webhooksElsewhereSection,
  type LimiterState,
  type StatusSection,
} from './status-sections.js';
import { endpointRows, routeRows, totalsOf, type EndpointRow, type RouteRow, type Totals } from './traffic.js';

/**
 * `/status`: one page an operator reads at a glance, and `/status/data`, the JSON it polls. Every
 * number comes from the registry behind /metrics or the parts' own `stats()`, so the page and
 * Prometheus never disagree. A private page (src/shared/private-access.ts): a loopback or
 * PRIVATE_HOSTS Host, no forwarding but through TRUSTED_PROXIES, and STATUS_TOKEN (bearer header
 * or `?token=`) when set, loopback callers only otherwise. `POST /status/dead-letters/:id/replay`
 * hands one dead letter back to the webhook dispatcher, behind the same guard and the session's
 * anti-forgery token the page reads from /status/data (./status-csrf.ts).
 */

/** What the status page needs of the webhook service running in this process. */
export interface WebhookStatus {
  stats(): WebhookStats;
  deadLetters(): Promise<DeliveryJob[]>;
  replay(id: string): Promise<boolean>;
}

export interface StatusDeps {
  metrics: GatewayMetrics;
  readiness: ReadinessDeps;
  endpoints: readonly EndpointDefinition[];
  token: string | undefined;
  /** Who may see private pages (Host, trusted proxies). */
  access: PrivateAccess;
  /** The anti-forgery tokens (a default one: a key of this process's own, tokens good for 10 minutes). */
  csrf?: StatusCsrf;
  /** Whether a Redis store is configured at all (else the limiter runs in memory). */
  redisConfigured: boolean;
  limits: LimiterState;
  /** The webhook service of this process; `elsewhere` when the primary of WORKERS>1 runs it; undefined when off. */
  webhooks: WebhookStatus | 'elsewhere' | undefined;
  /** Shadow mode's counters, once it runs (it is wired after these routes). */
  shadow?: () => ShadowStats | undefined;
  /** The cut-over state, when the part that decides it provides one: rendered after shadow mode. */
  cutover?: () => StatusSection | undefined | Promise<StatusSection | undefined>;
  /** Which v1 endpoints the mapped OAuth apps cannot serve for want of scopes (./app-scopes.ts); undefined: none mapped. */
  scopes?: () => StatusSection | undefined;
  /** How often the history takes a point (default 10 s; 90 points are kept). */
  historyStepMs?: number;
}

/** The most dead letters the page lists (the newest); the count says how many there are. */
const DEAD_LETTERS_SHOWN = 50;

export interface DeadLetterRow {
  id: string;
  /** The receiver's host only: a subscribed URL may carry a secret in its query. */
  receiver: string;
  attempts: number;
  lastError: string | undefined;
  createdAt: string;
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
  totals: Totals;
  endpoints: EndpointRow[];
  routes: RouteRow[];
  /** Rate limits, webhooks, shadow mode, cut-over: in words. */
  sections: StatusSection[];
  /** Whether shadow mode or a cut-over section is present (else the page says shadow mode is off). */
  shadowMode: boolean;
  deadLetters: { total: number; shown: DeadLetterRow[] } | undefined;
  history: { stepSeconds: number; points: readonly HistoryPoint[] };
  thresholds: typeof THRESHOLDS;
  coverage: CoverageSummary;
  /** Sent back as `x-v1gate-csrf` by the replay button: this session's, fresh at each poll. */
  csrf: string;
}

/** What the status page, its actions and the shadow report ask of a request. */
export function statusKey(token: string | undefined): PrivateKey {
  return { kind: 'token', token, name: 'STATUS_TOKEN' };
}

/**
 * A state-changing request from the page itself: it carries a token /status/data gave this
 * session (which another origin's script cannot read, and which is good with this session's
 * cookie only), and the browser does not say it came from another site.
 */
function fromThePage(c: Context, csrf: StatusCsrf): boolean {
  if (!csrf.verify(c, c.req.header('x-v1gate-csrf'))) return false;
  const site = c.req.header('sec-fetch-site');
  if (site !== undefined && site !== 'same-origin') return false;
  const origin = c.req.header('origin');
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === c.req.header('host');
  } catch {
    return false;
  }
}

function deadLetterRow(job: DeliveryJob): DeadLetterRow {
  let receiver = 'other';
  try {
    receiver = new URL(job.url).host;
  } catch {
    // not a URL: shown as other
  }
  return { id: job.id, receiver, attempts: job.attempts, lastError: job.lastError, createdAt: new Date(job.createdAt).toISOString() };
}

export function mountStatusPage(root: Hono, deps: StatusDeps): { close(): void } {
  const version = packageVersion();
  const startedAt = Date.now();
  const coverage = coverageSummary(deps.endpoints);
  const csrf = deps.csrf ?? new StatusCsrf();
  const webhooks = deps.webhooks === 'elsewhere' ? undefined : deps.webhooks;
  const history = new StatusHistory(
    {
      traffic: () => deps.metrics.traffic(),
      refusals: () => deps.limits.limiters.inbound.refusals().reduce((sum, r) => sum + r.count, 0),
      journalDepth: () => webhooks?.stats().journalDepth,
    },
    deps.historyStepMs,
  );
  history.start();

  async function sections(deadLetters: number | undefined): Promise<{ sections: StatusSection[]; shadowMode: boolean }> {
    const list = [limiterSection(deps.limits)];
    if (deps.webhooks === 'elsewhere') list.push(webhooksElsewhereSection());
    else if (webhooks) list.push(webhookSection(webhooks.stats(), deadLetters ?? 0));
    const shadow = deps.shadow?.();
    if (shadow) list.push(shadowSection(shadow));
    const cutover = await deps.cutover?.();
    if (cutover) list.push(cutover);
    const scopes = deps.scopes?.();
    if (scopes) list.push(scopes);
    return { sections: list, shadowMode: shadow !== undefined || cutover !== undefined };
  }

  async function data(c: Context): Promise<StatusData> {
    const [readiness, traffic, dead] = await Promise.all([
      checkReadiness(deps.readiness),
      deps.metrics.traffic(),
      webhooks ? webhooks.deadLetters() : Promise.resolve(undefined),
    ]);
    const newestFirst = dead ? [...dead].sort((a, b) => b.createdAt - a.createdAt) : undefined;
    return {
      version,
      uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      now: new Date().toISOString(),
      upstream: readiness.checks.upstream,
      redis: deps.redisConfigured ? readiness.checks.limiter : { ok: true, detail: 'not configured (limits in memory)' },
      redisConfigured: deps.redisConfigured,
      ready: readiness.ready,
      totals: totalsOf(traffic),
      endpoints: endpointRows(traffic),
      routes: routeRows(traffic),
      ...(await sections(dead?.length)),
      deadLetters: newestFirst && { total: newestFirst.length, shown: newestFirst.slice(0, DEAD_LETTERS_SHOWN).map(deadLetterRow) },
      history: { stepSeconds: history.stepMs / 1000, points: history.history() },
      thresholds: THRESHOLDS,
      coverage,
      csrf: csrf.issue(c),
    };
  }

  const guard = deps.access.guard(statusKey(deps.token));
  const noStore = { 'cache-control': 'no-store' };
  const at = prefixOf('status');
  root.get(at, guard, (c) => {
    csrf.session(c);
    return c.html(STATUS_PAGE_HTML, 200, noStore);
  });
  root.get(`${at}/data`, guard, async (c) => c.json(await data(c), 200, noStore));
  root.post(`${at}/dead-letters/:id/replay`, guard, async (c) => {
    if (!fromThePage(c, csrf)) {
      return c.json({ error: 'replay from the status page: its x-v1gate-csrf header is missing, expired or of another session' }, 403);
    }
    if (!webhooks) return c.json({ error: 'no webhook journal in this process' }, 404);
    const id = c.req.param('id');
    return (await webhooks.replay(id)) ? c.json({ replayed: id }, 200, noStore) : c.json({ error: `no dead letter ${id}` }, 404);
  });
  return { close: () => history.stop() };
}
