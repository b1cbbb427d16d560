import { inV1Words } from '../../../mappings/error-texts.js';
import { FAILURES, v1ErrorOf, v2FailureKind, type FailureKind, type RefusalKind } from '../../../mappings/errors.js';
import { retryAfterSeconds } from '../../shared/retry-after.js';
import { DotSegmentValue } from '../../shared/v2-path.js';
import { V1Code, V1Error } from '../../v1/errors.js';
import { RateLimitExceeded } from '../../ratelimit/errors.js';
import { CallWithdrawn, UpstreamUnavailable, V2Error } from '../../upstream/errors.js';
import { MISSING_SCOPES_V2_CODE, ScopesMissing, scopesMissingMessage, scopesNamedBy } from './scopes-missing.js';
import { ProofsExhausted } from '../../upstream/pair-proof.js';
import { KeyNotMapped, SecretRefused } from '../../upstream/auth/local-check.js';
import { OAuthTokenError } from '../../upstream/auth/oauth-tokens.js';

/**
 * v1gate's own refusal of a request (not a POST, no credentials, over the inbound limit...): its
 * kind is its row in mappings/errors.ts. The message is the row's own when the row fixes one.
 */
export class Refusal extends Error {
  override readonly name = 'Refusal';
  constructor(
    readonly kind: RefusalKind,
    message?: string,
    /** Extra response headers (Retry-After and X-RateLimit-* for an inbound refusal). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message ?? (FAILURES[kind].v1Message === 'keep' ? kind : FAILURES[kind].v1Message));
  }
}

/** The kind of any failure, named once: its row in mappings/errors.ts says what v1 answers. */
export function failureKindOf(error: unknown): FailureKind {
  if (error instanceof Refusal) return error.kind;
  if (error instanceof V1Error) return 'v1-error';
  if (error instanceof DotSegmentValue) return 'dot-segment-value';
  if (error instanceof RateLimitExceeded) return 'outbound-limited';
  if (error instanceof ProofsExhausted) return 'proofs-exhausted';
  if (error instanceof SecretRefused) return 'secret-refused';
  if (error instanceof KeyNotMapped) return 'key-not-mapped';
  if (error instanceof OAuthTokenError) return TOKEN_KINDS[error.outcome];
  if (error instanceof ScopesMissing) return 'scopes-missing';
  if (error instanceof V2Error && error.code === MISSING_SCOPES_V2_CODE && error.status === 400) return 'scopes-missing';
  if (error instanceof V2Error)
    return LIMIT_KINDS[error.limitKind ?? 'none'] ?? v2FailureKind(error.status, true, error.fieldErrors.length > 0);
  if (error instanceof UpstreamUnavailable) return UPSTREAM_KINDS[error.reason];
  if (error instanceof CallWithdrawn) return 'withdrawn';
  return 'internal';
}

/** A 429's failure by whose limit it met (src/ratelimit/limit-kind.ts); the others by their status. */
const LIMIT_KINDS: Partial<Record<NonNullable<V2Error['limitKind']> | 'none', FailureKind>> = {
  'user-daily': 'v2-user-daily-limited',
  resource: 'v2-resource-limited',
};

const TOKEN_KINDS: Record<OAuthTokenError['outcome'], FailureKind> = {
  refused: 'v2-token-refused',
  rate_limited: 'v2-token-limited',
  unavailable: 'v2-token-unavailable',
};

const UPSTREAM_KINDS: Record<UpstreamUnavailable['reason'], FailureKind> = {
  timeout: 'upstream-timeout',
  unreachable: 'upstream-unreachable',
  'bad-response': 'upstream-bad-answer',
  failed: 'v2-failed',
  refused: 'v2-refused-uncoded',
};

/** How a failure names v1 fields: a v2 field path (from the endpoint's tables), or the field holding a value (from the call's params). */
type FieldOfPath = (v2Path: string) => string | undefined;
type FieldHolding = (value: string) => string | undefined;

/**
 * Any failure → the v1 error to answer, through the one table: the only mapping from an error to
 * a v1 error. `v1FieldOf` names a v2 field path in v1 terms (from the endpoint's mapping tables,
 * read backwards; unnamed fields keep their v2 path); `fieldHolding` names the v1 field whose
 * value a failure is about (a `..` that would have become a v2 path segment).
 */
export function toV1Error(error: unknown, v1FieldOf: FieldOfPath = () => undefined, fieldHolding: FieldHolding = () => undefined): V1Error {
  if (error instanceof V1Error) return error;
  const kind = failureKindOf(error);
  const { code, message } = v1ErrorOf(kind, ownCodeAndMessage(kind, error, v1FieldOf, fieldHolding));
  return new V1Error(code, message, headersOf(error));
}

/** A refusal by v1gate's limiters or by v2 (429) knows when trying again is worth it; the v1 client is told. */
function headersOf(error: unknown): Record<string, string> {
  if (error instanceof Refusal) return error.headers;
  if (error instanceof RateLimitExceeded) return { 'Retry-After': String(error.retryAfterSeconds) };
  if (error instanceof ProofsExhausted) return { 'Retry-After': String(retryAfterSeconds(error.retryAfterMs)) };
  if (error instanceof OAuthTokenError && error.retryAfterMs !== undefined)
    return { 'Retry-After': String(retryAfterSeconds(error.retryAfterMs)) };
  if (error instanceof V2Error && error.status === 429) return { 'Retry-After': String(retryAfterSeconds(error.retryAfterMs ?? 1000)) };
  return {};
}

function ownCodeAndMessage(
  kind: FailureKind,
  error: unknown,
  v1FieldOf: FieldOfPath,
  fieldHolding: FieldHolding,
): { code: number; message: string } {
  if (error instanceof ScopesMissing) return { code: V1Code.noPrivilege, message: error.message };
  if (error instanceof V2Error) {
    if (kind === 'scopes-missing') return { code: V1Code.noPrivilege, message: scopesMissingMessage(scopesNamedBy(error.message), false) };
    if (kind === 'v2-invalid-fields') {
      const names = [...new Set(error.fieldErrors.map((e) => v1FieldOf(e.field) ?? e.field))];
      return { code: error.code, message: `Invalid parameter: ${names.join(', ')}. ${error.fieldErrors[0]!.message}` };
    }
    return { code: error.code, message: inV1Words(error.code, error.message) };
  }
  if (error instanceof DotSegmentValue) {
    return {
      code: V1Code.invalidParameter,
      message: `Invalid parameter: ${fieldHolding(error.value) ?? 'id'}. "${error.value}" names no resource.`,
    };
  }
  if (error instanceof UpstreamUnavailable) {
    const outcome = error.mayHaveApplied
      ? 'The request may or may not have been applied; check before retrying a write.'
      : 'Nothing was changed.';
    return { code: V1Code.upstreamUnavailable, message: `${error.message} ${outcome}` };
  }
  if (error instanceof CallWithdrawn) return { code: V1Code.upstreamUnavailable, message: `${error.message} Nothing more was changed.` };
  if (error instanceof OAuthTokenError) return { code: V1Code.upstreamUnavailable, message: `${error.message} Nothing was changed.` };
  // A refusal's row always names its code (REFUSALS in mappings/errors.ts); its message is its own.
  return { code: V1Code.upstreamUnavailable, message: error instanceof Error ? error.message : String(error) };
}
