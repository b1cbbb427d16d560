/**
 * The failure family: every error v1gate makes while answering a call extends `Failure` and
 * carries its kind, whose row in the failure table (mappings/errors.ts) says what v1 answers, who
 * is to blame and at what level its call line is written. Anything else thrown (a plain `Error`, a
 * library's) is by construction a bug of v1gate's: `internal`, logged once at error level where it
 * is caught, answered with the internal row's envelope. The kinds sit here, at the bottom, because
 * failures are made in every layer (a path value in src/shared/, a v1 error in src/v1/).
 */

/**
 * Every way v1gate itself refuses a request, before or instead of any v2 call: the request is not
 * a v1 call it can read, names nothing it serves, lacks credentials, or is over a limit.
 */
export type RefusalKind =
  /** A v1 call with a method other than POST. */
  | 'not-a-post'
  /** Bytes Node's HTTP parser cannot read as a request. */
  | 'malformed-request'
  /** A request target with a `.` or `..` segment (plain or encoded). */
  | 'dot-segment-path'
  /** A request pipelined behind one whose answer closed the connection. */
  | 'not-run'
  /** The body could not be read: too large, cut short, longer than its Content-Length. */
  | 'unreadable-body'
  /** The body was read but its fields cannot be decoded (a bad charset, percent-escape, multipart). */
  | 'undecodable-params'
  /** `data_type` is neither JSON nor XML. */
  | 'bad-data-type'
  /** No route of that path. */
  | 'unknown-path'
  /** api_key or api_secret missing. */
  | 'missing-credentials'
  /** An api_key the allow-list (ALLOWED_API_KEYS) does not name. */
  | 'key-not-allowed'
  /** Over the key's v1 inbound limit. */
  | 'inbound-limited'
  /** The gateway is draining for shutdown. */
  | 'shutting-down'
  /** Shadow mode: the real v1 service could not be reached. */
  | 'primary-unavailable';

/**
 * Every way a v1 call can fail, one name each. The table below is a `Record` over this union, so
 * the compiler refuses a kind without a row (as tRPC keys its HTTP statuses by every error code);
 * each failure carries its kind (`Failure`, below).
 */
export type FailureKind =
  | RefusalKind
  /** A parameter value of `.` or `..` that would become a v2 path segment and change the route. */
  | 'dot-segment-value'
  /** v2 answered 401: the JWT's key or secret is wrong. */
  | 'v2-bad-credentials'
  /** v2 answered 429. */
  | 'v2-rate-limited'
  /** v2 answered 429 for one user's daily meeting creates and updates: that user's, nobody else's. */
  | 'v2-user-daily-limited'
  /** v2 answered 429 for one resource's own limit (a registrant's adds in a day): that call's, nobody else's. */
  | 'v2-resource-limited'
  /** v2 answered 403. */
  | 'v2-no-privilege'
  /** The mapped app's token lacks a scope a route of the endpoint needs: found before the first v2 call, or v2 answered 4711. */
  | 'scopes-missing'
  /** v2 answered 400 naming fields (`errors`). */
  | 'v2-invalid-fields'
  /** v2 answered another error with a v2 code in its body (400, 404, 409 ...). */
  | 'v2-coded'
  /** A 4xx without a v2 error body: a proxy's page, a load balancer's 431. It did not apply. */
  | 'v2-refused-uncoded'
  /** A 5xx: the service failed, possibly after applying a write. */
  | 'v2-failed'
  /** No answer in time. */
  | 'upstream-timeout'
  /** No connection, or it broke before the answer was complete. */
  | 'upstream-unreachable'
  /** A 2xx that is not a v2 answer: not JSON, not an object, or past the size cap. */
  | 'upstream-bad-answer'
  /** v1gate's own outbound limiter could not send the call within the v2 limits in time. */
  | 'outbound-limited'
  /** Too many api_secrets v2 has not accepted lately were tried, for the key or in all: the pair's proof was not sent. */
  | 'proofs-exhausted'
  /** The credential map names the key, and the api_secret matches none of its secrets: refused without a v2 call. */
  | 'secret-refused'
  /** V2_CREDENTIALS_ONLY, and the credential map does not name the api_key. */
  | 'key-not-mapped'
  /** The OAuth token endpoint refused the v2 app the credential map names for the key (its client id, secret or account). */
  | 'v2-token-refused'
  /** The OAuth token endpoint limited the app's token requests. */
  | 'v2-token-limited'
  /** The OAuth token endpoint could not be reached, failed, or answered no token. */
  | 'v2-token-unavailable'
  /** The v1 client left before the call was sent; nothing was sent. */
  | 'withdrawn'
  /** v1gate's own v1 error: a parameter missing or of the wrong type, or a translator's refusal (its code and message are v1's already). */
  | 'v1-error'
  /** A bug in v1gate. */
  | 'internal';

/** How a failure's own message names v1 fields: a v2 field path (the endpoint's tables, read backwards), the field holding a value (the call's params). */
export interface FieldNaming {
  v1FieldOf(v2Path: string): string | undefined;
  fieldHolding(value: string): string | undefined;
}

/**
 * The bug behind an error, if any: the error itself when it is not of the family, or the bug a
 * failure was made from (its `cause`, as a v1 error that says what was undone keeps the failure
 * it tells of); undefined for a failure no bug caused.
 */
export function bugBehind(error: unknown): unknown {
  let inner = error;
  while (inner instanceof Failure) {
    if (inner.cause === undefined) return undefined;
    inner = inner.cause;
  }
  return inner;
}

/** One failure of a call, of one kind: its row says the rest. */
export abstract class Failure extends Error {
  abstract readonly kind: FailureKind;

  /** Response headers the v1 client is told with the error (Retry-After, X-RateLimit-*). */
  v1Headers(): Record<string, string> {
    return {};
  }

  /** Its own code, answered where its row keeps the code (a v2 code, a v1 error's own). */
  ownCode(): number | undefined {
    return undefined;
  }

  /** Its own message, answered where its row keeps the message; it may name the v1 fields it is about. */
  ownMessage(_naming: FieldNaming): string {
    return this.message;
  }
}
