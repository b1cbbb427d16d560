/**
 * The one table that says how failures become v1 errors. v2 error codes are mostly the v1 codes
 * already (1001 user not exist, 1005 user already exists, 3001 meeting not found, 3003 not the
 * meeting host, 4130 group not exist, 200 no privilege, 300 invalid parameter), so they pass
 * through; only what differs is translated. Each row says why.
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

/** What a v2 failure looks like to the table. */
export interface V2Failure {
  status: number;
  code: number;
  message: string;
}

export interface ErrorRow {
  /** Matches a v2 failure (every given property must be equal). */
  match: { status?: number; code?: number };
  /** The v1 code to answer, or `keep` for the v2 code. */
  v1Code: number | 'keep';
  /** The v1 message, or `keep` for the v2 message. */
  v1Message: string | 'keep';
  why: string;
}

export const V2_TO_V1_ERRORS: readonly ErrorRow[] = [
  {
    match: { status: 401 },
    v1Code: V1Code.invalidCredentials,
    v1Message: 'Invalid api key or secret: the api_key and api_secret do not match.',
    why: 'v2 answers 401 for a JWT signed with a wrong secret or an unknown key; v1 answered 102.',
  },
  {
    match: { status: 429 },
    v1Code: V1Code.rateLimited,
    v1Message: V1_RATE_LIMIT_MESSAGE,
    why: "v1's rate-limit error, word for word.",
  },
  {
    match: { status: 403 },
    v1Code: V1Code.noPrivilege,
    v1Message: 'keep',
    why: 'A v2 403 is a missing privilege; v1 said 200 (no privilege).',
  },
  {
    match: {},
    v1Code: 'keep',
    v1Message: 'keep',
    why: 'Every other v2 code is a v1 code already (1001, 1005, 3001, 3003, 4130, 200, 300, ...).',
  },
];

/** Translate a v2 failure through the table (field errors are named by the caller, who knows the v1 names). */
export function v1ErrorFor(failure: V2Failure): { code: number; message: string } {
  const row = V2_TO_V1_ERRORS.find(
    (r) => (r.match.status === undefined || r.match.status === failure.status) && (r.match.code === undefined || r.match.code === failure.code),
  )!;
  return {
    code: row.v1Code === 'keep' ? failure.code : row.v1Code,
    message: row.v1Message === 'keep' ? failure.message : row.v1Message,
  };
}
