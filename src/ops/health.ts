/**
 * Kubernetes-style health. `/healthz` (liveness) only says the process answers; `/readyz`
 * (readiness) says whether a load balancer should send it traffic: not draining, the limiter
 * store reachable (or its failure policy in force, which still answers), and the upstream
 * answering within a deadline.
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

export async function checkReadiness(deps: ReadinessDeps): Promise<Readiness> {
  const draining: CheckResult = deps.draining() ? { ok: false, detail: 'draining' } : { ok: true, detail: 'serving' };
  if (!draining.ok) {
    // Not ready whatever else holds: answer at once, without probing (the process is about to close).
    const skipped: CheckResult = { ok: true, detail: 'not checked while draining' };
    return { ready: false, checks: { draining, limiter: skipped, upstream: skipped } };
  }
  const [limiter, upstream] = await Promise.all([limiterCheck(deps), upstreamCheck(deps)]);
  return { ready: draining.ok && limiter.ok && upstream.ok, checks: { draining, limiter, upstream } };
}
