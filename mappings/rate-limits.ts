/**
 * The rate-limit classes of the v1 API, as data: which paths fall in which class, and the limits of
 * each class (a v2 call's limit is its account's budget of its route's category, which each typed v2 route
 * declares: src/v2-contract/v2-routes.ts). src/ratelimit/classify.ts compiles the path patterns; the limiters turn the limits
 * into token buckets (one bucket per limit, per api_key, per class).
 *
 * Path patterns: matched case-insensitively against a path without query string or trailing
 * slash. `*` stands for one or more whole path segments (`/v1/*\/list` matches `/v1/user/list`
 * and `/v1/im/group/member/list`); `{name}` stands for exactly one segment.
 *
 * A request falls in the FIRST class whose patterns match (so the order is part of the data) and
 * must then get a token from every limit of that class, all or none.
 */

export type LimitWindow = 'second' | 'minute' | 'day';

export interface LimitDef {
  /** Requests admitted per window; also the burst (a quiet key may spend the window's whole count at once). */
  count: number;
  per: LimitWindow;
}

export const WINDOW_SECONDS: Record<LimitWindow, number> = { second: 1, minute: 60, day: 86_400 };

export interface V1LimitClass {
  name: string;
  /** Paths relative to the host, starting with `/v1/`. */
  paths: readonly string[];
  limits: readonly LimitDef[];
  /**
   * Each path of the class has buckets of its own (the class gives their limits); unset: one set of
   * buckets for the whole class.
   */
  perEndpoint?: true;
  /** Where the row comes from, and anything the spec leaves open. */
  why: string;
}

const perSecond = (count: number): LimitDef => ({ count, per: 'second' });
const perMinute = (count: number): LimitDef => ({ count, per: 'minute' });
const perDay = (count: number): LimitDef => ({ count, per: 'day' });

/**
 * v1 spec, Limits. The per-minute and per-day rows name paths v1gate does not serve today
 * (metrics, report, chat); they stay here so they apply the day those paths are served.
 */
export const V1_LIMIT_CLASSES: readonly V1LimitClass[] = [
  {
    name: 'report-user',
    paths: ['/v1/report/getuserreport'],
    limits: [perSecond(1), perDay(1)],
    why: '1/s (/v1/report/*) and 1/day (its own row); the 2000/day of /v1/report/* is implied by 1/day.',
  },
  {
    name: 'metrics-minute',
    paths: ['/v1/metrics/meetings', '/v1/metrics/webinars'],
    limits: [perSecond(1), perMinute(1), perDay(2000)],
    why: 'Rows 1/s (/v1/metrics/*), 1/minute and 2000/day all name these two paths.',
  },
  {
    name: 'daily-quota',
    paths: ['/v1/chat/list', '/v1/report/*'],
    limits: [perSecond(1), perDay(2000)],
    why: 'Rows 1/s (/v1/chat/*, /v1/report/*) and 2000/day.',
  },
  {
    name: 'dashboard',
    paths: ['/v1/metrics/*'],
    limits: [perSecond(1)],
    why:
      'Row "1 request per second" (/v1/metrics/*), in a bucket of its own: production clients called a list and then a ' +
      'dashboard endpoint milliseconds apart for years without being refused (docs/decisions.md, Rate limits).',
  },
  {
    name: 'list-billing-plan',
    paths: [
      '/v1/*/list',
      '/v1/*/list/registration',
      '/v1/*/billing/*',
      '/v1/*/plan/*',
      '/v1/chat/*',
      '/v1/webinar/questions',
      '/v1/webinar/poll',
      '/v1/webinar/polls',
    ],
    limits: [perSecond(1)],
    perEndpoint: true,
    why:
      'Row "1 request per second", per endpoint: the live v1 served one key\'s meeting/list at 6 to 7 a second ' +
      "(github.com/zoom/api-v1 issue 19), so it never held a key's lists to one a second together, and the published " +
      'v1 libraries call two lists back to back (docs/decisions.md, Rate limits). /v1/questions/ in the spec is ' +
      "/v1/webinar/questions in the swagger; /v1/webinar/polls (the swagger name) is kept beside the spec's /v1/webinar/poll.",
  },
  {
    name: 'sdk-signature',
    // classify reads a path without the /v1 prefix as relative to it: the gateway's /sdk/signature
    // is classified as /v1/sdk/signature (no v1 path of that name exists).
    paths: ['/v1/sdk/signature'],
    limits: [perSecond(10)],
    why:
      "Not a v1 path: the meeting SDK signer (POST /sdk/signature). v1's general 10/s, in a bucket of its own " +
      "so a page signing joins does not eat the key's v1 budget; a pair v2 has not accepted lately also spends one " +
      'v2 call, its proof (docs/decisions.md, Unproven secrets).',
  },
  {
    name: 'general',
    paths: ['/v1/*'],
    limits: [perSecond(10)],
    why: 'Row "all endpoints: 10 requests per second unless stated otherwise".',
  },
];
