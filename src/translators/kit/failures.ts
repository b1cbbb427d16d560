import { v1ErrorOf, v2FailureKind, type FailureKind } from '../../../mappings/errors.js';
import { retryAfterSeconds } from '../../shared/retry-after.js';
import { V1Code, V1Error } from '../../v1/errors.js';
import { RateLimitExceeded } from '../../ratelimit/errors.js';
import { CallWithdrawn, UpstreamUnavailable, V2Error } from '../../upstream/errors.js';

/** The kind of any failure, named once: its row in mappings/errors.ts says what v1 answers. */
export function failureKindOf(error: unknown): FailureKind {
  if (error instanceof RateLimitExceeded) return 'outbound-limited';
  if (error instanceof V2Error) return v2FailureKind(error.status, true, error.fieldErrors.length > 0);
  if (error instanceof UpstreamUnavailable) return UPSTREAM_KINDS[error.reason];
  if (error instanceof CallWithdrawn) return 'withdrawn';
  return 'internal';
}

const UPSTREAM_KINDS: Record<UpstreamUnavailable['reason'], FailureKind> = {
  timeout: 'upstream-timeout',
  unreachable: 'upstream-unreachable',
  'bad-response': 'upstream-bad-answer',
  failed: 'v2-failed',
  refused: 'v2-refused-uncoded',
};

/**
 * Any failure → the v1 error to answer, through the one table. `v1FieldOf` names a v2 field path
 * in v1 terms (from the endpoint's mapping tables, read backwards); unnamed fields keep their v2 path.
 */
export function toV1Error(error: unknown, v1FieldOf: (v2Path: string) => string | undefined = () => undefined): V1Error {
  if (error instanceof V1Error) return error;
  const kind = failureKindOf(error);
  if (kind === 'internal') console.error('v1gate: unexpected error', error);
  const { code, message } = v1ErrorOf(kind, ownCodeAndMessage(kind, error, v1FieldOf));
  return new V1Error(code, message, retryAfterHeader(error));
}

/** A refusal by v1gate's limiter or by v2 (429) knows when trying again is worth it; the v1 client is told. */
function retryAfterHeader(error: unknown): Record<string, string> {
  if (error instanceof RateLimitExceeded) return { 'Retry-After': String(error.retryAfterSeconds) };
  if (error instanceof V2Error && error.status === 429) return { 'Retry-After': String(retryAfterSeconds(error.retryAfterMs ?? 1000)) };
  return {};
}

function ownCodeAndMessage(
  kind: FailureKind,
  error: unknown,
  v1FieldOf: (v2Path: string) => string | undefined,
): { code: number; message: string } {
  if (error instanceof V2Error) {
    if (kind === 'v2-invalid-fields') {
      const names = [...new Set(error.fieldErrors.map((e) => v1FieldOf(e.field) ?? e.field))];
      return { code: error.code, message: `Invalid parameter: ${names.join(', ')}. ${error.fieldErrors[0]!.message}` };
    }
    return { code: error.code, message: error.message };
  }
  if (error instanceof UpstreamUnavailable) {
    const outcome = error.mayHaveApplied
      ? 'The request may or may not have been applied; check before retrying a write.'
      : 'Nothing was changed.';
    return { code: V1Code.upstreamUnavailable, message: `${error.message} ${outcome}` };
  }
  if (error instanceof CallWithdrawn) return { code: V1Code.upstreamUnavailable, message: `${error.message} Nothing more was changed.` };
  return { code: V1Code.upstreamUnavailable, message: error instanceof Error ? error.message : String(error) };
}
