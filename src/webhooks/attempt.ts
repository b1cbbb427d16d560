/**
 * One delivery attempt by v1's rules: a 2XX within the deadline is delivered; a redirect is not
 * followed and counts as a failure; anything else (other status, timeout, refused) is a failure.
 */
export type AttemptResult = { ok: true } | { ok: false; error: string };

export async function attemptDelivery(
  url: string,
  body: string,
  authorization: string | undefined,
  deadlineMs: number,
): Promise<AttemptResult> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (authorization) headers.authorization = authorization;
  try {
    const response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(deadlineMs) });
    await response.body?.cancel();
    if (response.status >= 200 && response.status < 300) return { ok: true };
    return { ok: false, error: `HTTP ${response.status}` };
  } catch (error) {
    const e = error as Error;
    return { ok: false, error: e.name === 'TimeoutError' ? `no answer within ${deadlineMs} ms` : e.message };
  }
}
