import { V1Code, V1_RATE_LIMIT_MESSAGE, v1ErrorFor } from '../../mappings/errors.js';
import { RateLimitExceeded } from '../ratelimit/errors.js';
import { CallWithdrawn, UpstreamUnavailable, V2Error } from '../upstream/errors.js';

/** A v1 error: rendered as HTTP 200 `{"error":{"code":N,"message":"..."}}`, the way v1 answered. */
export class V1Error extends Error {
  override readonly name = 'V1Error';
  constructor(
    readonly code: number,
    message: string,
    /** Extra response headers (Retry-After and X-RateLimit-* on a rate-limit error). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toBody(): { error: { code: number; message: string } } {
    return { error: { code: this.code, message: this.message } };
  }
}

export const invalidParameter = (field: string, detail?: string) =>
  new V1Error(V1Code.invalidParameter, detail ? `Invalid parameter: ${field}. ${detail}` : `Invalid parameter: ${field}.`);

export const missingParameter = (field: string) => new V1Error(V1Code.invalidParameter, `${field} is required.`);

export const rateLimited = (headers: Record<string, string> = {}) => new V1Error(V1Code.rateLimited, V1_RATE_LIMIT_MESSAGE, headers);

/**
 * Any failure → the v1 error to answer. `v1FieldOf` names a v2 field path in v1 terms
 * (from the endpoint's mapping tables, read backwards); unnamed fields keep their v2 path.
 */
export function toV1Error(error: unknown, v1FieldOf: (v2Path: string) => string | undefined = () => undefined): V1Error {
  if (error instanceof V1Error) return error;
  if (error instanceof RateLimitExceeded) {
    // v1gate would have to wait past the call's deadline for outbound tokens: nothing more was sent.
    return rateLimited({ 'Retry-After': String(error.retryAfterSeconds) });
  }
  if (error instanceof V2Error) {
    const first = error.fieldErrors[0];
    if (error.status === 400 && first) {
      const names = [...new Set(error.fieldErrors.map((e) => v1FieldOf(e.field) ?? e.field))];
      return invalidParameter(names.join(', '), first.message);
    }
    const { code, message } = v1ErrorFor(error);
    return new V1Error(code, message);
  }
  if (error instanceof UpstreamUnavailable) {
    const outcome = error.mayHaveApplied
      ? 'The request may or may not have been applied; check before retrying a write.'
      : 'Nothing was changed.';
    return new V1Error(V1Code.upstreamUnavailable, `${error.message} ${outcome}`);
  }
  // Nobody reads this answer (the client left), but the logs and metrics do.
  if (error instanceof CallWithdrawn) return new V1Error(V1Code.upstreamUnavailable, `${error.message} Nothing more was changed.`);
  console.error('v1gate: unexpected error', error);
  return new V1Error(V1Code.upstreamUnavailable, 'Internal gateway error. Nothing is known to have been changed.');
}
