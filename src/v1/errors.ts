import { bugBehind, Failure, type FailureKind } from '../shared/failure.js';
import { serialize, type DataType } from './serialize.js';

/**
 * The v1 error, at the bottom of the v1 layers: its type, the codes v1gate answers with, the
 * helpers every part builds errors with, and the one rendering of its body. How each failure
 * becomes one is the table in mappings/errors.ts.
 */

export const V1_RATE_LIMIT_MESSAGE = 'Sorry, the maximum number of api requests are already reached. Please try later.';

/** v1 codes v1gate itself answers with (see docs/decisions.md for the ones the specs leave open). */
export const V1Code = {
  /** api_key or api_secret missing from the request. Our choice: the specs name no code for it. */
  missingCredentials: 101,
  /** The v1 spec's code for a key and secret that do not match (v2 answers 401). */
  invalidCredentials: 102,
  noPrivilege: 200,
  /** A missing, malformed or out-of-range parameter; the message names the v1 field. */
  invalidParameter: 300,
  /** v1's rate-limit error code. */
  rateLimited: 403,
  userNotExist: 1001,
  userAlreadyExists: 1005,
  meetingNotFound: 3001,
  notMeetingHost: 3003,
  groupNotExist: 4130,
  /** The v2 service could not be reached or did not answer in time. Our choice, stable. */
  upstreamUnavailable: 503,
} as const;

/** A v1 error: rendered as HTTP 200 `{"error":{"code":N,"message":"..."}}`, the way v1 answered. */
export class V1Error extends Failure {
  override readonly name = 'V1Error';
  constructor(
    readonly code: number,
    message: string,
    /** Extra response headers (Retry-After and X-RateLimit-* on a rate-limit error). */
    readonly headers: Record<string, string> = {},
    /** The failure this error says more about (what was done before it, what was undone). */
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
  }

  /** A v1 error of v1gate's own, unless it tells of a bug: then the bug's, so that it is logged as one. */
  get kind(): FailureKind {
    return bugBehind(this) === undefined ? 'v1-error' : 'internal';
  }

  override v1Headers(): Record<string, string> {
    return this.headers;
  }

  override ownCode(): number {
    return this.code;
  }

  toBody(): { error: { code: number; message: string } } {
    return { error: { code: this.code, message: this.message } };
  }
}

/**
 * The one writer of a v1 error body, `{"error":{"code":N,"message":"..."}}` or, in XML, the same
 * path under `<response>`: every part of v1gate that answers a v1 error renders it here.
 */
export function renderV1Error(error: V1Error, dataType: DataType = 'JSON'): string {
  return serialize(error.toBody(), dataType);
}

/** v1's "Invalid parameter: <field>", then what is wrong with it: a bare field name tells a client nothing to fix. */
export const invalidParameter = (field: string, detail: string) =>
  new V1Error(V1Code.invalidParameter, `Invalid parameter: ${field}. ${detail}`);

export const missingParameter = (field: string) => new V1Error(V1Code.invalidParameter, `${field} is required.`);

export const rateLimited = (headers: Record<string, string> = {}) => new V1Error(V1Code.rateLimited, V1_RATE_LIMIT_MESSAGE, headers);
