import type { V2LimitKind } from '../ratelimit/limit-kind.js';

/**
 * Every way a v2 call can fail, as a typed error. The v1 facade turns each into the v1 error
 * envelope through the one table in mappings/errors.ts.
 */

export interface V2FieldError {
  /** Dotted v2 path, e.g. `settings.audio`. */
  field: string;
  message: string;
}

/** The v2 service answered with an error status. */
export class V2Error extends Error {
  override readonly name = 'V2Error';
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly fieldErrors: V2FieldError[] = [],
    /** From `Retry-After` on a 429. */
    readonly retryAfterMs?: number,
    /** What else the answer said: whose limit a 429 met, and the service's tracking id (`x-zm-trackingid`). */
    readonly answer: { limitKind?: V2LimitKind; trackingId?: string } = {},
  ) {
    super(message);
  }

  /** Whose limit a 429 met (src/ratelimit/limit-kind.ts); undefined for any other status. */
  get limitKind(): V2LimitKind | undefined {
    return this.answer.limitKind;
  }
}

/** Why a v2 call is withdrawn when the gateway shuts down past its grace. */
export const SHUTTING_DOWN_UNSENT = 'v1gate is shutting down: this v2 call was not sent.';

/**
 * This v2 call was withdrawn, never sent: the v1 client left before it got its outbound token, or
 * the gateway is shutting down (`reason`).
 */
export class CallWithdrawn extends Error {
  override readonly name = 'CallWithdrawn';
  constructor(reason = 'The v1 client closed its connection before this call was sent; it was not sent.') {
    super(reason);
  }
}

/** The v2 service could not be reached, or did not answer in time. */
export class UpstreamUnavailable extends Error {
  override readonly name = 'UpstreamUnavailable';
  constructor(
    /** `failed`: a 5xx; `refused`: a 4xx without a v2 error body; `bad-response`: a 2xx that is no v2 answer. */
    readonly reason: 'timeout' | 'unreachable' | 'bad-response' | 'failed' | 'refused',
    message: string,
    /** Whether the request may have reached the service (so a write may have happened). */
    readonly mayHaveApplied: boolean,
  ) {
    super(message);
  }
}

/** Whether a failure is a v2 call that got no answer in time: the service holds calls without answering them. */
export const unanswered = (error: unknown): error is UpstreamUnavailable =>
  error instanceof UpstreamUnavailable && error.reason === 'timeout';

/**
 * The failure of a call that waited for another to the same service, which got no answer in time:
 * it is not sent (it would only wait as long again), so it changed nothing.
 */
export function notSentAfter(timedOut: UpstreamUnavailable): UpstreamUnavailable {
  return new UpstreamUnavailable('timeout', `${timedOut.message} Calls waiting for it were not sent.`, false);
}
