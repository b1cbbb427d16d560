/**
 * Where the sandbox's answers or v1gate's requests differ from today's published documents
 * (`spec/reference/today/`), each with the evidence and the reason it stays. The whole suite's v2
 * traffic is checked against the documents after the run (`today-traffic.ts`, from the global
 * setup); a difference no row explains fails the run. A row explains the problems whose side and
 * operation it names and whose place (and message, if given) its patterns match.
 */
export interface TodayDifference {
  side: 'answer' | 'request' | 'operation';
  /** `METHOD /template` as the documents write it, or a pattern over those (the concrete path for `operation`). */
  operation: string | RegExp;
  /** Over `status 201 /settings/x`, `query type`, `body /settings/x` (array indices as `*`). */
  place: RegExp;
  message?: RegExp;
  /** What shows the documents are not the last word here (a newer capture, the service's own answers), or where the sandbox is deliberately other. */
  evidence: string;
  why: string;
}

const MASTER =
  "Master-account APIs (sub accounts, their plans, billing and options): today's README says the service documents them apart from these five documents, so no operation here can hold them.";

export const TODAY_DIFFERENCES: readonly TodayDifference[] = [
  // Operations the documents do not hold.
  {
    side: 'operation',
    operation: /^(GET|POST|PATCH|PUT|DELETE) \/accounts(\/[^/]+(\/(plans(\/(addons|base))?|billing|options))?)?$/,
    place: /^$/,
    evidence: 'spec/reference/today/README.md: "Not in them: the master-account APIs"',
    why: MASTER,
  },
  {
    side: 'operation',
    operation: /^GET \/(im\/chat\/sessions(\/[^/]+)?|metrics\/im)$/,
    place: /^$/,
    evidence: 'docs/live-evidence.md, "Retired routes and token paging": both retired (chat sessions, IM metrics)',
    why: 'Retired routes the sandbox still answers so that test/gateway/retired-routes.test.ts can show no v1 endpoint calls them; v1gate never does.',
  },
  // Answers.
  {
    side: 'answer',
    operation: /^(GET \/(meetings\/\{meetingId\}|webinars\/\{webinarId\})|POST \/users\/\{userId\}\/(meetings|webinars))$/,
    place: /^status 20[01] \/occurrences\/\*\/occurrence_id$/,
    evidence:
      "today's documents type occurrence_id as a string; the old reference (spec/reference/v2-openapi.json) and our spec as an integer",
    why: 'The sandbox answers the number our spec and the old reference promise, and v1gate reads either (occurrence ids are read as text); changing the type is a change of the legacy-mode oracle too.',
  },
  {
    side: 'answer',
    operation: /^GET \/(meetings\/\{meetingId\}\/recordings|users\/\{userId\}\/recordings)$/,
    place: /^status 200 (\/meetings\/\*)?\/(id|recording_count|total_size)$/,
    evidence:
      "today's documents type the meeting's id, recording_count and total_size as integers; the old reference (spec/reference/v2-openapi.json) as strings, and test/sandbox/schema.test.ts holds the sandbox to it",
    why: "The sandbox answers the old reference's strings, which the legacy mode's oracle checks; v1gate reads either (mappings/recordings.ts decodes the counts from decimal text or a number; the id is read as text), so changing the type is a change of that oracle, not of what v1 clients receive.",
  },
  {
    side: 'answer',
    operation: /^GET \/(meetings\/\{meetingId\}|webinars\/\{webinarId\})\/registrants$/,
    place: /^status 200 \/registrants\/\*\/no_of_employees$/,
    evidence: "the old reference's registrant enumeration (101-500, 500-1,000) differs from today's (101-250, 251-500, 501-1,000)",
    why: "The sandbox takes and answers the old ranges, which v1 registration clients send; mapping them to today's ranges is a v1 mapping question not settled here.",
  },
  {
    side: 'answer',
    operation: /^GET \/metrics\/(meetings\/\{meetingId\}|webinars\/\{webinarId\})\/participants(\/qos|\/\{participantId\}\/qos)?$/,
    place: /^status 200 (\/participants\/\*)?\/(device|network_type|user_qos)$/,
    evidence:
      "today's documents: user_qos an array of samples, device and network_type enumerations; the old reference (spec/reference/v2-openapi.json, held to the sandbox by test/sandbox/schema.test.ts): user_qos one sample, device and network_type free text",
    why: "The sandbox answers the old reference's one sample, and empty text for a participant whose client reported nothing; v1gate reads a single sample and today's series alike (test/gateway/qos-series.test.ts), and answers device and network type as given, so the difference is the legacy oracle's, not what v1 clients receive.",
  },
  {
    side: 'answer',
    operation: 'GET /users/{userId}',
    place: /^status 200$/,
    message: /^must have required property 'type'$/,
    evidence:
      'docs/live-evidence.md, "Retired routes and token paging": GET /users/zpk is retired, and today\'s documents do not hold it, so its path reads as GET /users/{userId}',
    why: 'The sandbox still answers the retired ZPK check ({"expire_in": ...}) for the tests of its retirement; v1gate does not call it.',
  },
  {
    side: 'answer',
    operation: 'POST /users/{userId}/picture',
    place: /^status 201$/,
    message: /^not JSON$/,
    evidence: "today's document gives the 201 a JSON schema; the old reference answers 201 with no body",
    why: 'The sandbox answers an empty 201 as the old reference does; no translator reads the body.',
  },
  {
    side: 'answer',
    operation: /^(DELETE \/h323\/devices\/\{deviceId\}|PUT \/webinars\/\{webinarId\}\/status)$/,
    place: /^status 204$/,
    evidence:
      "today's documents list 200 for these two; every other delete and status change of the documents answers 204, as the old reference does for these",
    why: 'Kept at 204 with the old reference; v1gate reads no body of either.',
  },
  // v1gate's requests.
  {
    side: 'request',
    operation: /^GET \/metrics\/(meetings|webinars)$/,
    place: /^query (from|to)$/,
    message: /^required, not sent$/,
    evidence: 'v1 dashboard/meetings and dashboard/webinars list live meetings (type=live), which v1 asked without dates',
    why: 'A live listing has no range; the documents mark from and to required for every type. Not confirmed against the service.',
  },
  {
    side: 'request',
    operation: /^GET \/(im\/groups|users\/\{userId\}\/webinars)$/,
    place: /^query (next_page_token|page_size)$/,
    evidence: 'docs/live-evidence.md, "Token paging today": paged lists take next_page_token and page_size',
    why: 'v1gate pages every list the same way; these two documents list no paging parameters, and the service ignores unknown ones.',
  },
  {
    side: 'request',
    operation: 'GET /chat/users/{userId}/sessions',
    place: /^query page_size$/,
    evidence: "today's document caps page_size at 50",
    why: "v1 chat/list pages by v1's page_size (up to 300); to be capped at 50 and refilled across pages.",
  },
  {
    side: 'request',
    operation: 'PATCH /h323/devices/{deviceId}',
    place: /^body$/,
    message: /^must have required property '(name|ip|protocol|encryption)'$/,
    evidence: 'v1 h323/device/update sends only the fields the v1 call changed',
    why: 'A partial update, as PATCH means; the document requires the whole device.',
  },
  {
    side: 'request',
    operation: 'PATCH /users/{userId}/settings',
    place: /^body \/in_meeting\/attention_tracking$/,
    evidence:
      "today's document has no in_meeting.attention_tracking (the feature was retired in 2020); the group is schedule_meeting, which v1gate now writes",
    why: "v1's enable_attention_tracking is still written where the old reference had it; whether to drop it (accepted, not sent) is a v1 mapping decision not taken here.",
  },
  {
    side: 'request',
    operation: 'POST /users',
    place: /^body \/user_info\/password$/,
    evidence:
      "a test's deliberately short user/autocreate password; the sandbox refuses it 400 code 300 naming user_info.password, as the service does",
    why: 'v1gate passes the v1 password through rather than checking its length twice; the refusal reaches the v1 client naming the field.',
  },
  {
    side: 'request',
    operation: 'POST /users/{userId}/meetings',
    place: /^body \/recurrence\/weekly_days$/,
    evidence:
      'today\'s document enumerates weekly_days as one digit; its description (and the old reference) take a comma list of days ("1,3")',
    why: 'A comma list of days is what v1 recurrences carry; the enumeration cannot hold more than one day.',
  },
  {
    side: 'request',
    operation: 'GET /users/{userId}',
    place: /^query fan_out$/,
    evidence:
      'test/gateway/rate-limits.test.ts: the test-only endpoint /test/fanout reads GET /users/me with a distinct fan_out each, so that its reads are not coalesced into one',
    why: 'No v1 endpoint sends it: a marker of a test fixture that measures the outbound limits, which the service would ignore.',
  },
];
