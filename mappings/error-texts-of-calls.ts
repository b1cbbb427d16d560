import { V1_ERROR_TABLES, MOODLE, type ErrorText } from './error-text-row.js';

/**
 * The error texts of doing a call (mappings/error-texts.ts is the whole table): limits, shutdown,
 * v2's answers and what is left when a step of several fails.
 */
// eslint-disable-next-line max-lines-per-function -- data: the error texts of doing a call
function rows() {
  return {
    'rate-limited': {
      kinds: ['inbound-limited', 'v2-rate-limited', 'outbound-limited', 'proofs-exhausted', 'v2-token-limited'],
      code: 403,
      text: 'Sorry, the maximum number of api requests are already reached. Please try later.',
      where: "v1gate's inbound and outbound limits, a v2 429, the proof budget, the token endpoint's limit",
      source: "v1's own words (this file, \"Today's v2 rate limits\" and the v1 spec's rate-limit error)",
    },
    'shutting-down': {
      kinds: ['shutting-down'],
      code: 503,
      text: 'v1gate is shutting down: call again, another instance will answer.',
      where: 'v1gate, a call arriving while it drains',
      source: 'ours: v1 had no such answer (503 is our code, docs/decisions.md)',
    },
    'primary-unavailable': {
      kinds: ['primary-unavailable'],
      code: 503,
      text: 'The v1 service (V1_PRIMARY_URL) could not be reached or did not answer in time.',
      where: 'v1gate in shadow mode',
      source: 'ours: only v1gate compares with a v1',
    },
    'upstream-unchanged': {
      kinds: ['upstream-unreachable', 'v2-refused-uncoded', 'v2-token-unavailable'],
      code: 503,
      text: '<what failed> Nothing was changed.',
      where: 'v1gate, v2 unreachable, refusing without a v2 body, or no OAuth token, before anything was applied',
      source: 'ours: v1 had no upstream; the second sentence is what a client must know before retrying',
    },
    'upstream-maybe-applied': {
      kinds: ['upstream-timeout', 'v2-failed', 'upstream-bad-answer'],
      code: 503,
      text: '<what failed> The request may or may not have been applied; check before retrying a write.',
      where: 'v1gate, a v2 timeout, 5xx or broken answer after a write was sent',
      source: 'ours, as above',
    },
    withdrawn: {
      kinds: ['withdrawn'],
      code: 503,
      text: '<what happened> Nothing more was changed.',
      where: 'v1gate, a v2 step withdrawn before it was sent: its client left (nobody reads it), or a drain passed its grace',
      source: 'ours: it says nothing more was sent',
      notDrivenHere:
        'read only when a drain withdraws a step still waiting to be sent, which needs a process gateway and its SIGTERM: test/gateway/shutdown.test.ts',
    },
    'v2-token-refused': {
      kinds: ['v2-token-refused'],
      code: 503,
      text: 'v1gate could not authenticate to the v2 service for this api_key (its v2 app was refused). Nothing was changed.',
      where: "v1gate, the OAuth token endpoint refusing the key's v2 app",
      source: 'ours: the caller cannot fix it, the text says so',
    },
    internal: {
      kinds: ['internal'],
      code: 503,
      text: 'Internal gateway error. Nothing is known to have been changed.',
      where: 'v1gate, a bug',
      source: 'ours: a v1 envelope, never a stack trace',
    },
    'user-not-exist': {
      kinds: ['v2-coded'],
      code: 1001,
      text: 'User not exist: <id>',
      where: "v1gate, for v2's 404 1001 \"User does not exist: <id>.\" (today's service's and the sandbox's text), in the live v1's words",
      source: `"User not exist: {userId}" (${V1_ERROR_TABLES}, MeetingAPIs.md and RecordingAPIs.md); ${MOODLE}, which today's "does not exist" fails. Today's v2 text, which the sandbox writes, as public clients capture it: a Go client's fixture \`{"code":1001,"message":"User does not exist: missing@example.test."}\`, a Node client's \`{"code":1001,"message":"User does not exist: me."}\``,
    },
    'user-not-pending': {
      kinds: ['v1-error'],
      code: 1001,
      text: 'User not exist: <id> is not a pending user: delete it with type 0.',
      where: 'v1gate, user/delete of type 1 (pending) for an active user, and the converse',
      source: `v1's "User not exist: <id>" (${V1_ERROR_TABLES}, MeetingAPIs.md), which v1 answered for a user not of the kind asked; the rest says which type to use`,
    },
    'user-daily-limited': {
      kinds: ['v2-user-daily-limited'],
      code: 403,
      text: 'You have exceeded the daily rate limit (<limit>) of Meeting Create/Update API requests permitted for this particular user. You may resume these user-level requests at GMT 00:00:00.',
      where: "sandbox meeting create and update past a user's daily limit (v2 429), under v1's rate-limit code",
      source:
        'Zoom staff quoting the answer as `You have exceeded the daily rate limit (100) of Meeting Create/Update API requests permitted for this particular user. You may resume these requests at GMT 00:00:00.` (https://devforum.zoom.us/t/zoom-api-create-meeting-api-rate-limit-sample-error-when-breaching-limit/18928); today\'s says "these user-level requests" (this file, "Today\'s v2 rate limits")',
      notDrivenHere: 'needs a hundred meeting writes of one user: test/gateway/rate-limits-user-daily.test.ts',
    },
    'resource-limited': {
      kinds: ['v2-resource-limited'],
      code: 403,
      text: 'You have exceeded the daily rate limit of (<limit>) for Add a <meeting or webinar> registrant API requests for the registrant (<email>). You can resume these API requests at GMT 00:00:00.',
      where:
        "sandbox meeting and webinar registrant adds past a registrant's daily limit in one session (v2 429), under v1's rate-limit code",
      source:
        'the webinar\'s answer as captured: `You have exceeded the daily rate limit of (3) for Add a webinar registrant API requests for the registrant (user@example.com). You can resume these API requests at GMT 00:00:00.` (https://devforum.zoom.us/t/429-error-for-user-who-is-not-registered/141856); the meeting\'s is written the same way, its name changed (docs/live-evidence.md, "Whose limit a 429 is")',
      notDrivenHere: "needs four registrations of one registrant with the sandbox's limits on: test/gateway/rate-limits-whose.test.ts",
    },
    'user-already-exists': {
      kinds: ['v2-coded'],
      code: 1005,
      text: 'User already in the account: <email>',
      where: 'sandbox `POST /users` and sub-account create (v2 409), passed through; no period',
      source:
        "https://github.com/ncstate-delta/moodle-mod_zoom `classes/webservice.php` (`user_autocreate`: `strpos($e->getMessage(), 'User already in the account')`) and its test building `'User already in the account: ' . $email`; an esynctraining C# client's comment quoting `{\"code\": 1005, \"message\": \"User already in the account: …\"}`; https://github.com/AndrewSvirin/zoom asserting `sprintf('User already in the account: %s', $email)`; silinternational's v1 PHP client test `tests/UserTest.php`",
    },
    'meeting-not-exist': {
      kinds: ['v2-coded'],
      code: 3001,
      text: 'Meeting <id> is not found or has expired.',
      where: "v1gate, for v2's 404 3001 \"Meeting does not exist: <id>.\" (today's and the sandbox's), in the live v1's words",
      source: `"Meeting {meetingId} is not found or has expired." (${V1_ERROR_TABLES}, MeetingAPIs.md, get, update and delete); ${MOODLE}, whose "not found" today's text fails. Today's v2 text: a Node client's log \`404 - {"code":3001,"message":"Meeting does not exist: 98399082887."}\`, a Rust client's fixture \`{"code":3001,"message":"Meeting does not exist: 123."}\``,
    },
    'webinar-not-exist': {
      kinds: ['v2-coded'],
      code: 3001,
      text: 'Webinar <id> not found or expired.',
      where:
        "v1gate, for v2's 404 3001 \"Webinar does not exist: <id>.\" (the sandbox's, by analogy with the meeting text), in the live v1's words",
      source: `"Webinar {webinarId} not found or expired." (${V1_ERROR_TABLES}, WebinarAPIs.md, every webinar call); it holds the "not found" ${MOODLE} reads`,
    },
    'not-meeting-host': {
      kinds: ['v1-error'],
      code: 3003,
      text: 'The <meeting or webinar> <id> is not hosted by user <host_id>.',
      where: 'v1gate, a meeting or webinar call whose host_id is not the host',
      source: `v1-era "Not meeting host." (${V1_ERROR_TABLES}, MeetingAPIs.md); no client found matching on it, so the text keeps naming both ids`,
    },
    'group-not-exist': {
      kinds: ['v2-coded'],
      code: 4130,
      text: 'Group not exist: <id>',
      where:
        "v1gate, for v2's 404 4130 \"Group does not exist: <id>.\" (the sandbox's, by analogy with 1001 and 3001), in the live v1's words",
      source: `"Group not exist: {groupId}" (${V1_ERROR_TABLES}, UserAPIs.md; GroupAPIs.md prints it without the space)`,
    },
    'group-name-taken': {
      kinds: ['v2-coded'],
      code: 4132,
      text: 'Group name <name> is already in use.',
      where: 'sandbox group create and update (v2 409), passed through',
      source: `"Group name {groupName} is already in use." (${V1_ERROR_TABLES}, GroupAPIs.md, create and update)`,
    },
    'account-not-exist': {
      kinds: ['v2-coded'],
      code: 2001,
      text: 'This account does not exist or does not belong to you: <id>.',
      where: 'sandbox sub-account lookups (v2 404), passed through',
      source: `"This account does not exist or does not belong to you: {subAccountId}." (${V1_ERROR_TABLES}, AccountAPIs.md, every sub-account read and update)`,
    },
    'no-recording': {
      kinds: ['v2-coded'],
      code: 3301,
      text: 'There is no recording for this meeting: <id>.',
      where: 'sandbox recording reads and deletes of a meeting without recordings (v2 404), passed through',
      source: `"There is no recording for this meeting" (${V1_ERROR_TABLES}, RecordingAPIs.md); the meeting named after it, as 1001 and 3001 name theirs`,
    },
    'recording-file-not-exist': {
      kinds: ['v2-coded'],
      code: 3301,
      text: 'Recording file does not exist: <file_id>.',
      where: "sandbox delete of one recording file the meeting's recording does not hold (v2 404), passed through",
      source: `"Recording file does not exist" (${V1_ERROR_TABLES}, RecordingAPIs.md); the file named after it`,
    },
    'no-privilege': {
      kinds: ['v2-coded', 'v2-no-privilege'],
      code: 200,
      text: 'No privilege. Only a master account can manage sub accounts, plans and billing.',
      where:
        'sandbox sub-account, plan and billing routes for an account that is not a master (v2 400 with code 200, as the service answers; a v2 403 is answered with code 200 too), passed through',
      source: `"No privilege." (${V1_ERROR_TABLES}, UserAPIs.md); the second sentence says which privilege`,
    },
    'scopes-missing': {
      kinds: ['scopes-missing'],
      code: 200,
      text: 'No privilege: the v2 app of this api_key does not have the scopes [<scopes>] this call needs (docs/scopes.md). <whether anything was changed>',
      where:
        'v1gate, a mapped OAuth app whose token\'s scopes do not open every v2 route the endpoint may call (checked before the first v2 call: "Nothing was changed."), or v2\'s 400 code 4711 ("Calls of it made before this one may have been applied.")',
      source:
        'ours: v1 had no scopes; v1\'s 200 is its no-privilege code, as a v2 403 is answered, and the text names the scopes as v2\'s 4711 does (docs/live-evidence.md, "Granular scopes")',
      notDrivenHere: 'needs a mapped app made with only some scopes: test/gateway/scopes.test.ts',
    },
    'v2-invalid-fields': {
      kinds: ['v2-invalid-fields'],
      code: 300,
      text: 'Invalid parameter: <v1 fields>. <v2 message of the first>',
      where: 'v1gate, for v2\'s 400 "Validation Failed." naming fields, renamed to the v1 fields they came from',
      source:
        'v2\'s `{"code":300,"message":"Validation Failed.","errors":[{"field":…,"message":…}]}` (https://marketplace.zoom.us/docs/api-reference/error-definitions) put in v1\'s "Invalid parameter: <field>" form',
    },
    'unknown-gateway-path': {
      kinds: ['unknown-path'],
      code: 300,
      text: 'Unknown path: <path>.',
      where: 'v1gate, a path under /v1 or /sdk that no part serves (HTTP 200), or any other (HTTP 404, so a probe sees a failure)',
      source: "ours: outside v1's endpoint list there was no v1 answer to keep; the text names the path asked for",
    },
    'json-body': {
      kinds: ['undecodable-params'],
      code: 300,
      text: 'The JSON body <what is wrong with it>.',
      where: "v1gate's SDK signer (`POST /sdk/signature`), a JSON body that does not parse or is not an object",
      source: 'ours: the signer is no v1 endpoint; the text says what the body must be',
    },
    'registration-not-enabled': {
      kinds: ['v1-error'],
      code: 300,
      text: 'Registration has not been enabled for this webinar: <id>.',
      where: 'v1gate, a registrant call on a webinar without registration, before any change',
      source:
        "the words of v2's own refusal of a registrant call on a session without registration (the v2 reference's registrant routes list 'Registration has not been enabled for this meeting: {meetingId}.'; the sandbox answers the same of a webinar), so a webinar without registration reads the same from v1gate's check as from v2's",
    },
    'no-qos-data': {
      kinds: ['v1-error'],
      code: 3001,
      text: 'No participant of meeting <id> has QoS data.',
      where: 'v1gate, /metrics/qos of a session in which nobody reported QoS',
      source: 'ours: v1 answered its "meeting not found" code for it; the text says why there is nothing to show',
    },
    'no-ended-instance': {
      kinds: ['v1-error'],
      code: 3001,
      text: 'Webinar <id> has no ended instance <uuid>.',
      where: 'v1gate, a webinar report of an instance uuid that is not an ended instance of that webinar',
      source: `v1's 3001 for a webinar it could not find ("Webinar {webinarId} not found or expired.", ${V1_ERROR_TABLES}, WebinarAPIs.md), naming the instance`,
    },
    'steps-undone': {
      kinds: ['upstream-timeout', 'upstream-unreachable', 'v2-failed', 'upstream-bad-answer', 'withdrawn'],
      code: 503,
      text: '<what failed> Its earlier steps were undone.',
      where: 'v1gate, a call of several v2 steps whose later step failed unsent or unanswered, after the steps before it were undone',
      source: "ours: the failed step's own text speaks of that step only; the sentence after it says the call left nothing behind",
    },
    'undo-failed': {
      kinds: ['v1-error'],
      code: 'kept',
      text: '<what failed> The call was not completed, and undoing its earlier steps failed:<what remains done, and what may>',
      where: "v1gate, a call of several v2 steps that failed and whose undo failed too; the code is the failure's",
      source: 'ours: a client must know what is left behind before it retries',
    },
    'read-back-failed': {
      kinds: ['v1-error'],
      code: 'kept',
      text: '<what was done>, but reading it back for the answer failed: <what failed>',
      where: "v1gate, a write that was done whose answer needs a read that failed; the code is the read's",
      source: 'ours: a done write is never answered as a bare error, which a client would retry',
    },
    'registrants-part-done': {
      kinds: ['v1-error'],
      code: 'kept',
      text: '<what failed> Registrants <ids> were <approved or cancelled>; <ids> were not.',
      where:
        "v1gate, a registrant status change in batches whose later batch failed (v2 cannot undo the earlier); the code is the failure's",
      source: 'ours, as above: it says exactly what was done',
    },
    'sub-account-disassociated': {
      kinds: ['v1-error'],
      code: 'kept',
      text: '<what failed> The sub account <id> had been created; v2 cannot delete an account, so it was disassociated from the master account instead: it lives on as a standalone account and its owner email <email> stays in use.',
      where: "v1gate, /ma/account/create whose settings step failed after the account was made; the code is the failure's",
      source: 'ours, as above: v2 has no account delete, so the text says what was left',
    },
  } as const satisfies Record<string, ErrorText>;
}

export const CALL_ERROR_TEXTS = rows();
