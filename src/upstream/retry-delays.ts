import { UpstreamUnavailable, V2Error } from './errors.js';

/** When the v2 client sends a failed call again, and after how long (client.ts, `attemptFailed`). */

/** The longest Retry-After a GET waits out before trying again, rather than answering the v1 rate-limit error. */
export const MAX_429_RETRY_WAIT_MS = 2_000;
/**
 * A concurrency refusal (another operation on the same resource in flight) is sent again after
 * this wait times its attempt, any method (a refused call was not applied), while its time lasts.
 */
const CONCURRENCY_WAIT_MS = 250;
const CONCURRENCY_ATTEMPTS = 4;

/** How long to wait before trying again, or undefined to give up. */
export function retryDelay(error: unknown, attempt: number, attempts: number): number | undefined {
  if (error instanceof V2Error && error.status === 429) return limitRetryDelay(error, attempt, attempts);
  if (attempt >= attempts) {
    // A refused connection never reached the service: any method may try once more.
    return error instanceof UpstreamUnavailable && error.reason === 'unreachable' && !error.mayHaveApplied && attempt < 2 ? 50 : undefined;
  }
  if (error instanceof V2Error) {
    if (error.status === 502 || error.status === 503 || error.status === 504) return 100 * attempt;
    return undefined;
  }
  if (error instanceof UpstreamUnavailable) return 50 * attempt;
  return undefined;
}

/**
 * How long to wait before sending a call a 429 refused again, or undefined to answer it now. A
 * concurrency refusal is worth a short wait, whatever the method. A user's daily cap or a
 * resource's limit will not lift today. Any other: a short Retry-After (a per-second limit) is
 * worth waiting for where the call may be repeated; a long one (a daily quota, a storm) answers
 * now, and the category's pause (holdBack) refuses the next ones early.
 */
function limitRetryDelay(error: V2Error, attempt: number, attempts: number): number | undefined {
  switch (error.limitKind) {
    case 'concurrency':
      return attempt < CONCURRENCY_ATTEMPTS
        ? Math.min(error.retryAfterMs ?? CONCURRENCY_WAIT_MS * attempt, MAX_429_RETRY_WAIT_MS)
        : undefined;
    case 'user-daily':
    case 'resource':
      return undefined;
    default: {
      const wait = error.retryAfterMs ?? 1000;
      return attempt < attempts && wait <= MAX_429_RETRY_WAIT_MS ? wait : undefined;
    }
  }
}
