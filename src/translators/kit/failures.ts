import { FAILURES, v1ErrorOf, type FailureKind, type RefusalKind } from '../../../mappings/errors.js';
import { Failure } from '../../shared/failure.js';
import { V1Code, V1Error } from '../../v1/errors.js';

/**
 * v1gate's own refusal of a request (not a POST, no credentials, over the inbound limit...): its
 * kind is its row in mappings/errors.ts. The message is the row's own when the row fixes one.
 */
export class Refusal extends Failure {
  override readonly name = 'Refusal';
  constructor(
    readonly kind: RefusalKind,
    message?: string,
    /** Extra response headers (Retry-After and X-RateLimit-* for an inbound refusal). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message ?? (FAILURES[kind].v1Message === 'keep' ? kind : FAILURES[kind].v1Message));
  }

  override v1Headers(): Record<string, string> {
    return this.headers;
  }
}

/** The kind of any failure: the one it carries; anything not of the family is a bug (`internal`). */
export function failureKindOf(error: unknown): FailureKind {
  return error instanceof Failure ? error.kind : 'internal';
}

/** Whether an error is (or tells of) a bug of v1gate's: not of the failure family, so nobody foresaw it. Logged once, at error level, where it is caught. */
export const isBug = (error: unknown): boolean => failureKindOf(error) === 'internal';

/** Where a catch answers the failures it expects: a bug is not one of them, and goes on to a handler that logs it. */
export function throwIfBug(error: unknown): void {
  if (isBug(error)) throw error;
}

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
  if (!(error instanceof Failure)) {
    const { code, message } = v1ErrorOf('internal', { code: V1Code.upstreamUnavailable, message: 'internal' });
    return new V1Error(code, message);
  }
  const own = { code: error.ownCode() ?? V1Code.upstreamUnavailable, message: error.ownMessage({ v1FieldOf, fieldHolding }) };
  const { code, message } = v1ErrorOf(error.kind, own);
  return new V1Error(code, message, error.v1Headers());
}
