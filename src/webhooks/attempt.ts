import type { Logger } from 'pino';

/**
 * One delivery attempt by v1's rules: a 2XX within the deadline is delivered; a redirect is not
 * followed and counts as a failure; anything else (other status, timeout, refused) is a failure.
 */
export type AttemptResult = { ok: true } | { ok: false; error: string };

/** Who hears of a failed attempt: each is a warn line, so a failing receiver shows long before its dead letter. */
export interface AttemptLog {
  logger: Logger;
  webhook: string;
  /** 1 for the first attempt. */
  attempt: number;
}

export async function attemptDelivery(
  url: string,
  body: string,
  authorization: string | undefined,
  deadlineMs: number,
  log?: AttemptLog,
): Promise<AttemptResult> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (authorization) headers.authorization = authorization;
  let failure: { error: string; status?: number };
  try {
    const response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(deadlineMs) });
    await response.body?.cancel();
    if (response.status >= 200 && response.status < 300) return { ok: true };
    failure = { error: `HTTP ${response.status}`, status: response.status };
  } catch (error) {
    failure = { error: reasonOf(error, deadlineMs) };
  }
  log?.logger.warn(
    { webhook: log.webhook, receiver: new URL(url).origin, attempt: log.attempt, status: failure.status, reason: failure.error },
    'webhook attempt failed',
  );
  return { ok: false, error: failure.error };
}

/**
 * Why no answer came, in words an operator can act on: fetch says only "fetch failed" and puts
 * the reason in its cause (ECONNREFUSED, ENOTFOUND, a TLS certificate's code...).
 */
function reasonOf(error: unknown, deadlineMs: number): string {
  const e = error as Error & { cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') return `no answer within ${deadlineMs} ms`;
  const cause = e.cause?.code ?? e.cause?.message;
  return cause ? `${e.message} (${cause})` : e.message;
}
