import { inV1Words } from '../../mappings/error-texts.js';
import { v2FailureKind } from '../../mappings/errors.js';
import type { V2LimitKind } from '../ratelimit/limit-kind.js';
import { Failure, type FailureKind, type FieldNaming } from '../shared/failure.js';
import { retryAfterSeconds } from '../shared/retry-after.js';
import { MISSING_SCOPES_V2_CODE, scopesMissingMessage, scopesNamedBy } from './scopes-missing.js';

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
export class V2Error extends Failure {
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

  /** A 429 by whose limit it met; the others by their status. */
  get kind(): FailureKind {
    if (this.code === MISSING_SCOPES_V2_CODE && this.status === 400) return 'scopes-missing';
    return LIMIT_KINDS[this.limitKind ?? 'none'] ?? v2FailureKind(this.status, true, this.fieldErrors.length > 0);
  }

  /** v2's 429 knows when trying again is worth it; the v1 client is told. */
  override v1Headers(): Record<string, string> {
    return this.status === 429 ? { 'Retry-After': String(retryAfterSeconds(this.retryAfterMs ?? 1000)) } : {};
  }

  override ownCode(): number {
    return this.code;
  }

  /** In v1's words; a 400 naming fields names them as the v1 fields they came from. */
  override ownMessage(naming: FieldNaming): string {
    if (this.kind === 'scopes-missing') return scopesMissingMessage(scopesNamedBy(this.message), false);
    const [first] = this.fieldErrors;
    if (this.kind !== 'v2-invalid-fields' || !first) return inV1Words(this.code, this.message);
    const names = [...new Set(this.fieldErrors.map((e) => naming.v1FieldOf(e.field) ?? e.field))];
    return `Invalid parameter: ${names.join(', ')}. ${first.message}`;
  }
}

/** A 429's failure by whose limit it met (src/ratelimit/limit-kind.ts); the others by their status. */
const LIMIT_KINDS: Partial<Record<V2LimitKind | 'none', FailureKind>> = {
  'user-daily': 'v2-user-daily-limited',
  resource: 'v2-resource-limited',
};

/** Why a v2 call is withdrawn when the gateway shuts down past its grace. */
export const SHUTTING_DOWN_UNSENT = 'v1gate is shutting down: this v2 call was not sent.';

/**
 * This v2 call was withdrawn, never sent: the v1 client left before it got its outbound token, or
 * the gateway is shutting down (`reason`).
 */
export class CallWithdrawn extends Failure {
  override readonly name = 'CallWithdrawn';
  readonly kind = 'withdrawn';
  constructor(reason = 'The v1 client closed its connection before this call was sent; it was not sent.') {
    super(reason);
  }

  override ownMessage(): string {
    return `${this.message} Nothing more was changed.`;
  }
}

/** The v2 service could not be reached, or did not answer in time. */
export class UpstreamUnavailable extends Failure {
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

  get kind(): FailureKind {
    return UPSTREAM_KINDS[this.reason];
  }

  /** Whether a write may have been applied, said with the failure. */
  override ownMessage(): string {
    const outcome = this.mayHaveApplied
      ? 'The request may or may not have been applied; check before retrying a write.'
      : 'Nothing was changed.';
    return `${this.message} ${outcome}`;
  }
}

const UPSTREAM_KINDS: Record<UpstreamUnavailable['reason'], FailureKind> = {
  timeout: 'upstream-timeout',
  unreachable: 'upstream-unreachable',
  'bad-response': 'upstream-bad-answer',
  failed: 'v2-failed',
  refused: 'v2-refused-uncoded',
};

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
