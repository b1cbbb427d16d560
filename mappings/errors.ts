import type { FailureKind, RefusalKind } from '../src/shared/failure.js';
import { V1Code, V1_RATE_LIMIT_MESSAGE } from '../src/v1/errors.js';

export type { FailureKind, RefusalKind };

/**
 * The one table that says how failures become v1 errors. v2 error codes are mostly the v1 codes
 * already (1001 user not exist, 1005 user already exists, 3001 meeting not found, 3003 not the
 * meeting host, 4130 group not exist, 200 no privilege, 300 invalid parameter), so they pass
 * through; only what differs is translated. Each row says why.
 */

/**
 * Who is to blame for a failure, which decides its call line's level: a client's mistake (what it
 * sent, whom it sent as, more than its limits) is written at info, as a success; something between
 * v1gate and v2 (v2 failed, did not answer, is misconfigured for the key) at warn; only a bug of
 * v1gate's at error. At error, every anonymous request missing a parameter wrote a line with a
 * stack, past every budget of refused calls' lines.
 */
export type Blame = 'client' | 'upstream' | 'v1gate';

export const LEVEL_OF_BLAME = { client: 'info', upstream: 'warn', v1gate: 'error' } as const satisfies Record<
  Blame,
  'info' | 'warn' | 'error'
>;

export interface FailureRow {
  /** Whose failure it is (LEVEL_OF_BLAME: its call line's level). */
  blame: Blame;
  /** The v1 code to answer, or `keep` for the v2 code in the failure's body. */
  v1Code: number | 'keep';
  /** The v1 message, or `keep` for the failure's own message (for upstream failures, with whether a write may have been applied). */
  v1Message: string;
  why: string;
}

/** A refusal has no v2 code to keep: each row names its v1 code. */
const REFUSALS = {
  'not-a-post': {
    blame: 'client',
    v1Code: V1Code.invalidParameter,
    v1Message: 'keep',
    why: 'v1 calls are POSTs; the message names the method sent.',
  },
  'malformed-request': {
    blame: 'client',
    v1Code: V1Code.invalidParameter,
    v1Message: 'keep',
    why: "Still a v1 envelope, never the HTTP parser's bare 400; the message names the parser's reason.",
  },
  'dot-segment-path': {
    blame: 'client',
    v1Code: V1Code.invalidParameter,
    v1Message: 'keep',
    why: 'A dot segment would change which route the path names; it is refused, never resolved.',
  },
  'not-run': {
    blame: 'client',
    v1Code: V1Code.invalidParameter,
    v1Message: 'keep',
    why: 'Nothing of it was run: the client must send it again on a new connection.',
  },
  'unreadable-body': {
    blame: 'client',
    v1Code: V1Code.invalidParameter,
    v1Message: 'keep',
    why: 'The message says what was wrong with the body.',
  },
  'undecodable-params': {
    blame: 'client',
    v1Code: V1Code.invalidParameter,
    v1Message: 'keep',
    why: 'The message names the field and what could not be decoded.',
  },
  'bad-data-type': {
    blame: 'client',
    v1Code: V1Code.invalidParameter,
    v1Message: 'Invalid parameter: data_type. Must be JSON or XML.',
    why: 'v1 answered JSON or XML only; the error itself is answered in JSON (or the query string’s data_type).',
  },
  'unknown-path': { blame: 'client', v1Code: V1Code.invalidParameter, v1Message: 'keep', why: 'The message names the path asked for.' },
  'missing-credentials': {
    blame: 'client',
    v1Code: V1Code.missingCredentials,
    v1Message: 'Api key and secret are required.',
    why: "The specs name no code for it: 101, our choice (docs/decisions.md). The text is the live v1's: settings pages tell an unconfigured site by it (docs/live-evidence.md, v1 error texts).",
  },
  'key-not-allowed': {
    blame: 'client',
    v1Code: V1Code.invalidCredentials,
    v1Message: 'Invalid api key or secret: this api_key may not use this gateway.',
    why: "v1's code for a key it does not accept; the message says it is the gateway's allow-list.",
  },
  'inbound-limited': {
    blame: 'client',
    v1Code: V1Code.rateLimited,
    v1Message: V1_RATE_LIMIT_MESSAGE,
    why: "v1's rate-limit error, word for word, with Retry-After and X-RateLimit-* headers.",
  },
  'shutting-down': {
    blame: 'client',
    v1Code: V1Code.upstreamUnavailable,
    v1Message: 'v1gate is shutting down: call again, another instance will answer.',
    why: 'Nothing was run; the connection closes so the client reconnects elsewhere.',
  },
  'primary-unavailable': {
    blame: 'upstream',
    v1Code: V1Code.upstreamUnavailable,
    v1Message: 'The v1 service (V1_PRIMARY_URL) could not be reached or did not answer in time.',
    why: 'Shadow mode answers what the real v1 service answers; without it, unavailable.',
  },
} satisfies Record<RefusalKind, FailureRow & { v1Code: number }>;

export const FAILURES: Record<FailureKind, FailureRow> = {
  ...REFUSALS,
  'dot-segment-value': {
    blame: 'client',
    v1Code: V1Code.invalidParameter,
    v1Message: 'keep',
    why: 'A value that would change the v2 route; the message names the v1 field that holds it.',
  },
  'v2-bad-credentials': {
    blame: 'client',
    v1Code: V1Code.invalidCredentials,
    v1Message: 'Invalid api key or secret: the api_key and api_secret do not match.',
    why: 'v2 answers 401 for a JWT signed with a wrong secret or an unknown key; v1 answered 102.',
  },
  'v2-rate-limited': {
    blame: 'upstream',
    v1Code: V1Code.rateLimited,
    v1Message: V1_RATE_LIMIT_MESSAGE,
    why: "v1's rate-limit error, word for word.",
  },
  'v2-user-daily-limited': {
    blame: 'client',
    v1Code: V1Code.rateLimited,
    v1Message: 'keep',
    why: "v1's rate-limit code with the service's own text, which says whose limit it is (this user's 100 meeting creates and updates) and when it resets (00:00 UTC), with Retry-After; other users' calls go on.",
  },
  'v2-resource-limited': {
    blame: 'client',
    v1Code: V1Code.rateLimited,
    v1Message: 'keep',
    why: "v1's rate-limit code with the service's own text, which names the resource (the registrant) and when its day resets; nothing else is held back, so every other call goes on.",
  },
  'v2-no-privilege': {
    blame: 'client',
    v1Code: V1Code.noPrivilege,
    v1Message: 'keep',
    why: 'A v2 403 is a missing privilege; v1 said 200 (no privilege).',
  },
  'scopes-missing': {
    blame: 'upstream',
    v1Code: V1Code.noPrivilege,
    v1Message: 'keep',
    why: "A permission the gateway's v2 app lacks, as a v2 403 is: v1's 200 (no privilege). The message names the scopes to grant (docs/scopes.md), and says whether anything was sent; v1gate checks the token's scopes before a call's first v2 call, and a 4711 from v2 gets the same answer. An operator's to grant, as a refused app is: at warn.",
  },
  'v2-invalid-fields': {
    blame: 'client',
    v1Code: V1Code.invalidParameter,
    v1Message: 'keep',
    why: 'v1 named the invalid parameter with 300; the facade renames the v2 field paths to the v1 fields they came from.',
  },
  'v2-coded': {
    blame: 'client',
    v1Code: 'keep',
    v1Message: 'keep',
    why: 'Every other v2 code is a v1 code already (1001, 1005, 3001, 3003, 4130, 200, 300, ...).',
  },
  'v2-refused-uncoded': {
    blame: 'upstream',
    v1Code: V1Code.upstreamUnavailable,
    v1Message: 'keep',
    why: 'A raw HTTP status is no v1 code; a refusal without a v2 body means the request was not applied.',
  },
  'v2-failed': {
    blame: 'upstream',
    v1Code: V1Code.upstreamUnavailable,
    v1Message: 'keep',
    why: 'A raw HTTP status is no v1 code; a 5xx after a write may have applied it, which the message says.',
  },
  'upstream-timeout': {
    blame: 'upstream',
    v1Code: V1Code.upstreamUnavailable,
    v1Message: 'keep',
    why: 'A write that timed out may have been applied; the message says so.',
  },
  'upstream-unreachable': {
    blame: 'upstream',
    v1Code: V1Code.upstreamUnavailable,
    v1Message: 'keep',
    why: 'A refused connection changed nothing; one broken mid-answer may have applied a write.',
  },
  'upstream-bad-answer': {
    blame: 'upstream',
    v1Code: V1Code.upstreamUnavailable,
    v1Message: 'keep',
    why: 'An answer that is not a v2 answer is never read as an empty success.',
  },
  'outbound-limited': {
    blame: 'client',
    v1Code: V1Code.rateLimited,
    v1Message: V1_RATE_LIMIT_MESSAGE,
    why: "Waiting for v2 tokens past the call's deadline: v1's rate-limit error with Retry-After; nothing more was sent.",
  },
  'proofs-exhausted': {
    blame: 'client',
    v1Code: V1Code.rateLimited,
    v1Message: V1_RATE_LIMIT_MESSAGE,
    why: "v1's rate-limit error with Retry-After: the proof budget (docs/decisions.md) is spent; the key's own limits are untouched.",
  },
  'secret-refused': {
    blame: 'client',
    v1Code: V1Code.invalidCredentials,
    v1Message: 'Invalid api key or secret: the api_key and api_secret do not match.',
    why: "Word for word what a v2 401 answers (v2-bad-credentials): a client cannot tell a local check from v2's, and learns nothing from the difference.",
  },
  'key-not-mapped': {
    blame: 'client',
    v1Code: V1Code.invalidCredentials,
    v1Message: 'Invalid api key or secret: this api_key may not use this gateway.',
    why: "As the allow-list's refusal (key-not-allowed): with V2_CREDENTIALS_ONLY the credential map is the list of keys served.",
  },
  'v2-token-refused': {
    blame: 'upstream',
    v1Code: V1Code.upstreamUnavailable,
    v1Message: 'v1gate could not authenticate to the v2 service for this api_key (its v2 app was refused). Nothing was changed.',
    why: "The caller's secret was right: the gateway's own v2 app is misconfigured, which the caller cannot fix (operators see v1gate_v2_token_requests_total).",
  },
  'v2-token-limited': {
    blame: 'upstream',
    v1Code: V1Code.rateLimited,
    v1Message: V1_RATE_LIMIT_MESSAGE,
    why: "v1's rate-limit error with Retry-After: the token endpoint limits the app; nothing was sent.",
  },
  'v2-token-unavailable': {
    blame: 'upstream',
    v1Code: V1Code.upstreamUnavailable,
    v1Message: 'keep',
    why: 'No token, no v2 call: nothing was changed, which the message says.',
  },
  withdrawn: {
    blame: 'client',
    v1Code: V1Code.upstreamUnavailable,
    v1Message: 'keep',
    why: 'Nobody reads it (the client left), but logs and metrics do: nothing more was sent.',
  },
  'v1-error': {
    blame: 'client',
    v1Code: 'keep',
    v1Message: 'keep',
    why: 'Made as a v1 error where the mistake was found (a missing or mistyped parameter, a refusal a translator names): answered as it is.',
  },
  internal: {
    blame: 'v1gate',
    v1Code: V1Code.upstreamUnavailable,
    v1Message: 'Internal gateway error. Nothing is known to have been changed.',
    why: 'A bug must still answer a v1 envelope, never a stack trace.',
  },
};

/** The kind of a v2 error status (`coded`: the body carried a v2 code). */
export function v2FailureKind(status: number, coded: boolean, withFieldErrors: boolean): FailureKind {
  if (status === 401) return 'v2-bad-credentials';
  if (status === 429) return 'v2-rate-limited';
  if (status === 403) return 'v2-no-privilege';
  if (status >= 500) return 'v2-failed';
  if (!coded) return 'v2-refused-uncoded';
  return status === 400 && withFieldErrors ? 'v2-invalid-fields' : 'v2-coded';
}

/** The level of a failure's call line, by who is to blame for it. */
export const levelOf = (kind: FailureKind) => LEVEL_OF_BLAME[FAILURES[kind].blame];

/** The v1 code and message of a failure of `kind` whose own code and message are given. */
export function v1ErrorOf(kind: FailureKind, own: { code: number; message: string }): { code: number; message: string } {
  const row = FAILURES[kind];
  return { code: row.v1Code === 'keep' ? own.code : row.v1Code, message: row.v1Message === 'keep' ? own.message : row.v1Message };
}
