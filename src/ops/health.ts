/**
 * Kubernetes-style health. `/healthz` (liveness) only says the process answers; `/readyz`
 * (readiness) says whether a load balancer should send it traffic: whether this process can
 * answer, that is not draining and the limiter store reachable (or its failure policy in force,
 * which still answers). The upstream is probed and reported beside them but does not decide: when
 * v2 is out, every pod is equally cut off, and a pod that stays in the Service answers v1 clients
 * v1's own "unavailable" envelope where an empty Service would give them the ingress's bare 502/503.
 * Its health is seen on the status page, in `v1gate_upstream_up` and in the V1gateUpstreamDown alert.
 *
 * /readyz needs no credentials, and its probe is a request to V2_BASE_URL (the real service in
 * production): a flood of /readyz shares one probe at a time, and its answer for `probeEveryMs`
 * after it ends, so it costs v2 at most one request a `probeEveryMs` however many ask (2,000
 * /readyz, 32 at once, made 2,000 v2 requests, 32 at a time). Draining is read afresh each time.
 */

export interface ReadinessDeps {
  /** True while the process drains for shutdown (provided by the server's lifecycle). */
  draining(): boolean;
  /** Whether the limiter store answers; resolves false after `timeoutMs`. */
  limiterStoreReachable(timeoutMs: number): Promise<boolean>;
  /** fail-open: an unreachable store is served from local buckets, so the process stays ready. */
  limiterFailurePolicy: 'open' | 'closed' | undefined;
  /** The v2 base URL; any HTTP answer (even 401/404) proves it is reachable. */
  upstreamUrl: string;
  deadlineMs: number;
  /** How long a probe's answer is given to every /readyz after it ends (READY_PROBE_EVERY_MS); 0: each asks afresh, one at a time. */
  probeEveryMs?: number;
  fetch?: typeof fetch;
}

export interface CheckResult {
  ok: boolean;
  detail: string;
}

export interface Readiness {
  ready: boolean;
  checks: { draining: CheckResult; limiter: CheckResult; upstream: CheckResult };
}

async function upstreamCheck(deps: ReadinessDeps): Promise<CheckResult> {
  const doFetch = deps.fetch ?? fetch;
  try {
    const response = await doFetch(deps.upstreamUrl, { method: 'GET', signal: AbortSignal.timeout(deps.deadlineMs) });
    await response.body?.cancel();
    return { ok: true, detail: `answered ${response.status}` };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    return { ok: false, detail: timedOut ? `no answer within ${deps.deadlineMs} ms` : 'unreachable' };
  }
}

async function limiterCheck(deps: ReadinessDeps): Promise<CheckResult> {
  if (await deps.limiterStoreReachable(deps.deadlineMs)) return { ok: true, detail: 'reachable' };
  if (deps.limiterFailurePolicy === 'open') return { ok: true, detail: 'unreachable; failing open on local buckets' };
  return { ok: false, detail: 'unreachable; failing closed' };
}

type Probed = Pick<Readiness['checks'], 'limiter' | 'upstream'>;

/** Each gateway's probe (one deps object per gateway): the one in flight, and the last answer with when it ended. */
const probes = new WeakMap<ReadinessDeps, { running?: Promise<Probed>; last?: { probed: Probed; endedAt: number } }>();

/** The limiter store and the upstream, probed once for every caller at the same moment, the answer kept `probeEveryMs`. */
function sharedProbe(deps: ReadinessDeps): Promise<Probed> {
  let shared = probes.get(deps);
  if (!shared) probes.set(deps, (shared = {}));
  if (shared.running) return shared.running;
  const last = shared.last;
  if (last && performance.now() - last.endedAt < (deps.probeEveryMs ?? 0)) return Promise.resolve(last.probed);
  const entry = shared;
  entry.running = Promise.all([limiterCheck(deps), upstreamCheck(deps)])
    .then(([limiter, upstream]) => {
      entry.last = { probed: { limiter, upstream }, endedAt: performance.now() };
      return entry.last.probed;
    })
    .finally(() => (entry.running = undefined));
  return entry.running;
}

export async function checkReadiness(deps: ReadinessDeps): Promise<Readiness> {
  const draining: CheckResult = deps.draining() ? { ok: false, detail: 'draining' } : { ok: true, detail: 'serving' };
  if (!draining.ok) {
    // Not ready whatever else holds: answer at once, without probing (the process is about to close).
    const skipped: CheckResult = { ok: true, detail: 'not checked while draining' };
    return { ready: false, checks: { draining, limiter: skipped, upstream: skipped } };
  }
  const { limiter, upstream } = await sharedProbe(deps);
  return { ready: limiter.ok, checks: { draining, limiter, upstream } };
}

/** The upstream's check alone, from the same shared probe as /readyz (so a scrape costs v2 no more than a probe does). */
export async function checkUpstream(deps: ReadinessDeps): Promise<CheckResult> {
  return (await sharedProbe(deps)).upstream;
}
