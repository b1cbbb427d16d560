/**
 * Whose limit a v2 429 is, as data: the texts and headers by which today's service tells them
 * apart. src/ratelimit/limit-kind.ts reads this table; what v1gate does for each kind is written
 * there (src/upstream/client.ts acts on it), and docs/live-evidence.md ("Whose limit a 429 is")
 * cites each row's source.
 *
 * The rows are tried in order against the 429's message; the first whose pattern matches names
 * the kind. A message no row matches is the account's when its headers say a per-second budget
 * (`X-RateLimit-Type: QPS`), and otherwise `unknown`.
 */

export type V2LimitKind =
  /** The account's budget of the route's category (per second, or the Heavy daily cap): every user's calls of that category. */
  | 'account'
  /** One user's daily meeting (and webinar) creates and updates: that user's writes until 00:00 UTC. */
  | 'user-daily'
  /** One resource's own limit (a registrant's adds or status changes in one meeting or webinar): that call only. */
  | 'resource'
  /** Another operation on the same resource is in flight: the call may be sent again shortly. */
  | 'concurrency'
  /** A text no row names: nothing is held back past its own Retry-After, and it is counted for an operator to see. */
  | 'unknown';

export interface V2LimitText {
  kind: Exclude<V2LimitKind, 'unknown'>;
  pattern: RegExp;
  /** The service's words as captured (the example the test holds the pattern to). */
  example: string;
  /** Where the words come from. */
  source: string;
}

export const V2_LIMIT_TEXTS: readonly V2LimitText[] = [
  {
    kind: 'user-daily',
    pattern: /permitted for this particular user/i,
    example:
      'You have exceeded the daily rate limit (100) of Meeting Create/Update API requests permitted for this particular user. You may resume these requests at GMT 00:00:00.',
    source: 'https://devforum.zoom.us/t/zoom-api-create-meeting-api-rate-limit-sample-error-when-breaching-limit/18928 (staff)',
  },
  {
    kind: 'resource',
    pattern: /API requests for the registrant\b/i,
    example:
      'You have exceeded the daily rate limit of (3) for Add a webinar registrant API requests for the registrant (user@example.com). You can resume these API requests at GMT 00:00:00.',
    source: 'https://devforum.zoom.us/t/429-error-for-user-who-is-not-registered/141856',
  },
  {
    kind: 'resource',
    pattern: /permitted for .* this particular registrant/i,
    example:
      'You have exceeded the daily rate limit (3) of Webinar Batch Registration API requests permitted for (someone@example.com) this particular registrant. You may resume these requests at GMT 00:00:00.',
    source: 'https://devforum.zoom.us/t/why-are-now-limited-to-only-3-add-webinar-registrant-api-calls-per-day/57798 (the older wording)',
  },
  {
    kind: 'concurrency',
    pattern: /too many concurrent requests/i,
    example: 'Too many concurrent requests',
    source:
      'https://developers.zoom.us/docs/api/rate-limits/ ("Some APIs have limits on concurrent operations performed on a single resource", #limits-to-concurrent-requests)',
  },
  {
    kind: 'account',
    pattern: /maximum per-second rate limit for this API/i,
    example: 'You have reached the maximum per-second rate limit for this API. Try again later.',
    source: 'https://devforum.zoom.us/t/zoom-api-create-meeting-api-rate-limit-sample-error-when-breaching-limit/18928',
  },
  {
    kind: 'account',
    pattern: /maximum daily rate limit for this API/i,
    example:
      'You have reached the maximum daily rate limit for this API. Refer to the response header for details on when you can make another request.',
    source: 'https://developers.zoom.us/docs/api/rate-limits/ (the Heavy and Resource-intensive daily cap)',
  },
];
