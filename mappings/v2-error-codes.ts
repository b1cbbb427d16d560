import { V1Code } from '../src/v1/errors.js';

/**
 * The v2 error codes today's published documents list for the routes v1gate calls, read against
 * the failure table (`FAILURES`, mappings/errors.ts). A v2 code reaches the v1 client one of three
 * ways: as a v1 code of the same meaning (v1 had it: `V1_SHARED_CODES`), through a row of its own
 * (`V2_CODES_WITH_A_ROW`), or passed through unchanged as `v2-coded` with the service's own text,
 * which is what every code of `V2_CODES_PASSED_THROUGH` gets, each group with the reason that is
 * right for it. mappings/v2-error-codes.test.ts fails on a listed code in none of the three, and
 * on a row naming a code no document lists for a route v1gate calls.
 */

/** The codes v1 and v2 share, with one meaning: the failure table passes them through as v1 codes. */
export const V1_SHARED_CODES: ReadonlySet<number> = new Set(
  [
    V1Code.noPrivilege,
    V1Code.invalidParameter,
    V1Code.userNotExist,
    V1Code.userAlreadyExists,
    V1Code.meetingNotFound,
    V1Code.notMeetingHost,
    V1Code.groupNotExist,
  ].map(Number),
);

/** v2 codes the failure table answers by a row of their own, not by passing them through. */
export const V2_CODES_WITH_A_ROW: ReadonlyMap<number, string> = new Map([
  [124, 'Invalid access token: listed under 400 by a few operations, answered 401 in practice, which is `v2-bad-credentials` (v1 102).'],
  [
    4001,
    "Listed under 429 by PATCH /meetings/{meetingId} (a user's daily meeting updates): a 429 is `v2-rate-limited` or `v2-user-daily-limited`, v1 403, whatever its code.",
  ],
]);

export interface PassedThrough {
  readonly codes: readonly number[];
  /** Why the service's own code and text are the right answer for the v1 client. */
  readonly why: string;
}

const NO_V1_CODE =
  "v1 had no code for this refusal, so none to translate it to: the client receives the service's code and text, which say what to change";

export const V2_CODES_PASSED_THROUGH: readonly PassedThrough[] = [
  {
    codes: [
      120, 1000, 1009, 1010, 1102, 1107, 1108, 1109, 1116, 1117, 1120, 1122, 2002, 2016, 2032, 2033, 2034, 2035, 2036, 2037, 2038, 2039,
      3412, 4100, 11321,
    ],
    why: `User writes the service refuses by its account's rules (domains, SSO, plans, licences, user types, pictures). ${NO_V1_CODE}.`,
  },
  {
    codes: [1123, 1124, 1125, 1126, 1127, 1128, 1129, 1130, 1131, 1136],
    why: `PUT /users/{userId}/password: each a password rule of the account. ${NO_V1_CODE}; the text names the rule.`,
  },
  {
    codes: [1204, 1205, 1206, 1207, 1208, 1209, 1210, 1211, 1228, 1233, 1234, 1242],
    why: `PATCH /users/{userId}/settings: a setting the account locks or the plan lacks. ${NO_V1_CODE}.`,
  },
  {
    codes: [3000, 3018, 3027, 3034, 3035, 3037, 3038, 3043, 3063, 3161, 4505],
    why: `Meeting, webinar and registrant refusals (3000 "cannot access", 3161 hosting not allowed, registration closed, a webinar licence). ${NO_V1_CODE}; 3001 and 3003, which v1 had, are shared above.`,
  },
  {
    codes: [3301, 3303, 3310],
    why: `Recordings: none found, a file still processing, already trashed. ${NO_V1_CODE}.`,
  },
  {
    codes: [4131, 4132, 4137],
    why: `Groups: a member not in the group, a name taken, and 4137 (410) "The IM Group APIs are no longer available" (every /im/groups route lists it). ${NO_V1_CODE}.`,
  },
  {
    codes: [2001, 2020],
    why: `An account that does not exist or is not yours (2001), an H.323 device name already in use (2020). ${NO_V1_CODE}.`,
  },
  {
    codes: [2300, 2306],
    why: `2300 "This API endpoint is not recognized" (a route the account is not served) and 2306 (403) meetings scheduled for others, which the account's settings do not let the app list. ${NO_V1_CODE}.`,
  },
  {
    codes: [400, 12700, 12702],
    why: `Dashboards: 400 the Dashboard feature not on the account's plan, 12700 a query the account may not make, 12702 a meeting over a year old. ${NO_V1_CODE}.`,
  },
];
