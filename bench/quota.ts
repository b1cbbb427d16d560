import { Pool } from 'undici';
import { DEFAULT_RATE_LIMIT_PLAN, PLAN_LIMITS } from '../src/sandbox/rate-limit.js';
import type { RateLimitCategory } from '../src/v2-contract/v2-route.js';
import { API_KEY, API_SECRET } from './harness.js';
import { startChild, type Child } from './procs.js';
import type { UpstreamCounts } from './sandbox-upstream.js';

/**
 * The quota case: how much of v2's quota a saturated key gets through v1gate, and whether v1gate
 * ever makes the upstream refuse. The real sandbox runs with its v2 limits ON (SANDBOX_LIMITS=spec:
 * today's limits of a Pro account, Light 30/s, Heavy 10/s), v1gate with its outbound limits on and its inbound ones off (a v1
 * client may send faster than v2 allows; the outbound side is what is measured). For each category a
 * few connections keep v1 calls coming for the whole run, each call different from every other
 * (its own email, its own year and month), so neither coalescing nor the aux cache saves a v2
 * call: every v1 call is one v2 call of the category. The upstream counts what it admitted and what
 * it refused with 429 (sandbox-upstream.ts); v2 calls/s = admitted during the run ÷ its length.
 * Targets: ≥ 95% of the category's quota on the account's plan, 0 upstream 429s.
 */

export interface QuotaOptions {
  durationSec: number;
  log?: (line: string) => void;
}

interface QuotaLoad {
  id: string;
  v1Path: string;
  category: RateLimitCategory;
  quotaPerSec: number;
  /**
   * v1 calls in flight: enough that one always waits for the next token, few enough that the
   * key's backlog stays under OUTBOUND_MAX_BACKLOG_MS (2 s) so none is refused for it.
   */
  connections: number;
  params(i: number): Record<string, string>;
}

/** The account's quota of a category, calls per second, on the sandbox's default plan. */
function planRate(category: RateLimitCategory): number {
  const limit = PLAN_LIMITS[DEFAULT_RATE_LIMIT_PLAN].categories[category];
  return limit.count / limit.perSeconds;
}

const LOADS: QuotaLoad[] = [
  {
    id: 'general',
    v1Path: '/v1/user/checkemail',
    category: 'light',
    quotaPerSec: planRate('light'),
    connections: 8,
    params: (i) => ({ email: `quota.${i}@example.com` }),
  },
  {
    id: 'report',
    v1Path: '/v1/report/getdailyreport',
    category: 'heavy',
    quotaPerSec: planRate('heavy'),
    connections: 2,
    params: (i) => ({ year: String(2000 + Math.floor(i / 12)), month: String((i % 12) + 1) }),
  },
];

export interface QuotaResult {
  id: string;
  v1Path: string;
  category: RateLimitCategory;
  quotaPerSec: number;
  connections: number;
  durationSec: number;
  /** v2 calls of the class the upstream admitted during the run. */
  v2Admitted: number;
  v2PerSec: number;
  /** v2PerSec ÷ quotaPerSec. */
  share: number;
  /** Upstream 429s during the run and until its last call was answered (any class). */
  upstream429: number;
  v1Answered: number;
  /** v1 answers that were errors (v1gate's own rate-limit refusals among them), with the first one. */
  v1Errors: number;
  firstV1Error?: string;
}

/** One run per class, each against a fresh gateway over one sandbox with its limits on. */
export async function runQuota(options: QuotaOptions): Promise<QuotaResult[]> {
  const log = options.log ?? (() => {});
  const sandbox = await startChild('sandbox upstream (limits on)', './sandbox-upstream.ts', {
    SANDBOX_API_KEY: API_KEY,
    SANDBOX_API_SECRET: API_SECRET,
    SANDBOX_LIMITS: 'spec',
  });
  const results: QuotaResult[] = [];
  try {
    for (const load of LOADS) {
      log(`quota-${load.id}: ${load.v1Path} saturated for ${options.durationSec} s (${load.connections} connections)`);
      const gateway = await startChild('gateway', './gateway-proc.ts', {
        PORT: '0',
        V2_BASE_URL: `http://127.0.0.1:${sandbox.ready.port}/v2`,
        V1_RATE_LIMITS: 'off',
        V2_RATE_LIMITS: 'on',
        RATE_LIMIT_SCALE: '1',
      });
      try {
        const result = await saturate(load, sandbox, `http://127.0.0.1:${gateway.ready.port}`, options.durationSec);
        log(
          `  ${result.v2PerSec.toFixed(2)} v2 calls/s of ${load.quotaPerSec} (${(result.share * 100).toFixed(1)}%), ${result.upstream429} upstream 429s, ${result.v1Errors} v1 errors`,
        );
        results.push(result);
      } finally {
        await gateway.stop();
      }
    }
  } finally {
    await sandbox.stop();
  }
  return results;
}

async function counts(sandbox: Child): Promise<UpstreamCounts> {
  return (await sandbox.ask('counts')).counts as UpstreamCounts;
}

const refusedTotal = (c: UpstreamCounts) => Object.values(c).reduce((sum, n) => sum + n.refused429, 0);

async function saturate(load: QuotaLoad, sandbox: Child, gatewayUrl: string, durationSec: number): Promise<QuotaResult> {
  const pool = new Pool(gatewayUrl, { connections: load.connections, pipelining: 1 });
  let next = 0;
  let v1Answered = 0;
  let v1Errors = 0;
  let firstV1Error: string | undefined;
  const before = await counts(sandbox);
  const started = performance.now();
  const endAt = started + durationSec * 1000;
  const client = async () => {
    while (performance.now() < endAt) {
      const body = new URLSearchParams({ api_key: API_KEY, api_secret: API_SECRET, ...load.params(next++) }).toString();
      const answer = await pool.request({
        method: 'POST',
        path: load.v1Path,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
        headersTimeout: 60_000,
        bodyTimeout: 60_000,
      });
      const text = await answer.body.text();
      if (answer.statusCode === 200 && !text.startsWith('{"error"')) {
        v1Answered++;
        continue;
      }
      v1Errors++;
      firstV1Error ??= `HTTP ${answer.statusCode}: ${text.slice(0, 200)}`;
      // A client told to slow down does, instead of spinning on refusals.
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const clients = Array.from({ length: load.connections }, client);
  // The window is the run itself: what the upstream admitted between its two readings.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, endAt - performance.now())));
  const after = await counts(sandbox);
  const elapsedSec = (performance.now() - started) / 1000;
  await Promise.all(clients);
  await pool.close();
  // 429s are counted until the last call sent has its answer.
  const drained = await counts(sandbox);
  const v2Admitted = after[load.category].admitted - before[load.category].admitted;
  const v2PerSec = v2Admitted / elapsedSec;
  return {
    id: `quota-${load.id}`,
    v1Path: load.v1Path,
    category: load.category,
    quotaPerSec: load.quotaPerSec,
    connections: load.connections,
    durationSec: elapsedSec,
    v2Admitted,
    v2PerSec,
    share: v2PerSec / load.quotaPerSec,
    upstream429: refusedTotal(drained) - refusedTotal(before),
    v1Answered,
    v1Errors,
    ...(firstV1Error === undefined ? {} : { firstV1Error }),
  };
}
