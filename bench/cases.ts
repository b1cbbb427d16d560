import type { Seeded } from './seed.js';

/**
 * The benchmark's cases. Each is measured side by side with the floor (floor.ts) over the same
 * upstream, with the same keep-alive policy, A B A B. A case whose v1 endpoint the gateway does not
 * serve yet is reported as "not served yet", never faked.
 */

export type UpstreamKind = 'fixed' | 'sandbox';
export type LimiterMode = 'off' | 'memory' | 'redis';

export interface BenchCase {
  id: string;
  title: string;
  /** v1 path as a client posts it. */
  v1Path: string;
  params(seeded: Seeded): Record<string, string>;
  upstream: UpstreamKind;
  limiter: LimiterMode;
  /** V1_KEEP_ALIVE of the gateway, FLOOR_KEEP_ALIVE of the floor. */
  keepAlive: boolean;
  /** Also measure latency at half the floor's peak rate. */
  halfLoad: boolean;
  /** More gateway settings for this case (e.g. AUX_CACHE_TTL_MS). */
  env?: Record<string, string>;
  /**
   * Parameters that differ on every request (n counts the requests of a run): nothing to share, so
   * v1gate makes every v2 call the floor makes. Without it the load posts one call over and over,
   * and identical GETs in flight are sent once.
   */
  distinct?: (n: number) => Record<string, string>;
  /**
   * A headline case: one endpoint family, every request its own ids, so it measures what one call
   * costs. The others repeat one call (coalescing cases) or vary a setting.
   */
  headline?: boolean;
  /** What v1gate may share between the load's requests (identical GETs in flight, a cached read), or 'nothing'. */
  shares: string;
}

const meetingGet = { v1Path: '/v1/meeting/get', params: (s: Seeded) => ({ id: s.meetingId, host_id: s.userId }) };
const checkEmail = { v1Path: '/v1/user/checkemail', params: (s: Seeded) => ({ email: s.email }) };
const base = { upstream: 'fixed' as const, limiter: 'off' as const, keepAlive: true, halfLoad: true };
/** The same call from every connection: identical GETs in flight are sent once, and the host's live meetings are cached. */
const COALESCED = 'identical GETs in flight (coalescing)';
const COALESCED_AND_CACHED = `${COALESCED}; the host's live meetings (aux cache)`;
const NOTHING = 'nothing';
/** An id of the fixed upstream's form for request n: it answers any id with its one captured object. */
const benchId = (n: number) => `bench${n}`;

/** The headline cases first (one per endpoint family, nothing shared), then the coalescing and setting cases. */
export function buildCases(served: (v1Path: string) => boolean): BenchCase[] {
  const one = served(meetingGet.v1Path) ? meetingGet : checkEmail;
  const oneName = one.v1Path.replace('/v1', '');
  return [
    {
      id: 'checkemail-distinct',
      title: 'read, one v2 call: user/checkemail, every request its own email',
      ...checkEmail,
      ...base,
      headline: true,
      shares: NOTHING,
      distinct: (n) => ({ email: `bench.${n}@example.com` }),
    },
    {
      id: 'user-get-distinct',
      title: 'read, five v2 calls in parallel: user/get (the user, its settings, its three tokens), every request its own user',
      v1Path: '/v1/user/get',
      params: (s) => ({ id: s.userId }),
      ...base,
      headline: true,
      shares: NOTHING,
      distinct: (n) => ({ id: benchId(n) }),
    },
    {
      id: 'meeting-create',
      title: 'write, one v2 call: meeting/create, every request its own topic',
      v1Path: '/v1/meeting/create',
      params: (s) => ({ host_id: s.userId, topic: 'Benchmark create', type: '2', start_time: '2030-07-01T15:00:00Z', duration: '30' }),
      ...base,
      headline: true,
      shares: NOTHING,
      distinct: (n) => ({ topic: `Benchmark create ${n}` }),
    },
    {
      id: 'user-custcreate',
      title: 'write with rollback possible: user/custcreate (the create, then the user read back), every request its own email',
      v1Path: '/v1/user/custcreate',
      params: () => ({ email: 'bench.created@example.com', type: '1', first_name: 'Bench', last_name: 'Created' }),
      ...base,
      headline: true,
      shares: NOTHING,
      distinct: (n) => ({ email: `bench.created.${n}@example.com` }),
    },
    {
      id: 'meeting-list-distinct',
      title: "list page: meeting/list (the page, the host's live meetings, each listed meeting read), every request its own host",
      v1Path: '/v1/meeting/list',
      params: (s) => ({ host_id: s.userId }),
      ...base,
      headline: true,
      // The fixed upstream lists its one captured meeting for every host: that meeting's read is shared while in flight.
      shares: "the listed meeting's read (one meeting listed for every host)",
      distinct: (n) => ({ host_id: benchId(n) }),
    },
    {
      id: 'xml-distinct',
      title: 'XML answer: meeting/get data_type=XML, every request its own meeting',
      ...meetingGet,
      params: (s) => ({ ...meetingGet.params(s), data_type: 'XML' }),
      ...base,
      headline: true,
      // A meeting/get also reads its host's live meetings; the fixed upstream's meetings all have one host.
      shares: "the host's live meetings (aux cache; one host)",
      distinct: (n) => ({ id: String(90_000_000_000 + n) }),
    },
    {
      id: 'meeting-get',
      title: 'coalescing: meeting/get, the same call from every connection (aux cache warm)',
      ...meetingGet,
      ...base,
      shares: COALESCED_AND_CACHED,
    },
    // The same mix with the aux cache off: every get also reads the host's live meetings (2 v2 calls).
    {
      id: 'meeting-get-nocache',
      title: 'coalescing: meeting/get, AUX_CACHE_TTL_MS=0',
      ...meetingGet,
      ...base,
      env: { AUX_CACHE_TTL_MS: '0' },
      shares: COALESCED,
    },
    {
      id: 'checkemail',
      title: 'coalescing: user/checkemail, the same call from every connection',
      ...checkEmail,
      ...base,
      shares: COALESCED,
    },
    {
      id: 'user-get',
      title: 'coalescing: user/get (+ settings), the same call from every connection',
      v1Path: '/v1/user/get',
      params: (s) => ({ id: s.userId }),
      ...base,
      shares: COALESCED,
    },
    {
      id: 'xml',
      title: `coalescing: XML answer, ${oneName} data_type=XML`,
      v1Path: one.v1Path,
      params: (s) => ({ ...one.params(s), data_type: 'XML' }),
      ...base,
      shares: COALESCED_AND_CACHED,
    },
    { id: 'limiter-memory', title: `limiter in memory: ${oneName}`, ...one, ...base, limiter: 'memory', shares: COALESCED_AND_CACHED },
    { id: 'limiter-redis', title: `limiter in Redis: ${oneName}`, ...one, ...base, limiter: 'redis', shares: COALESCED_AND_CACHED },
    { id: 'keepalive-off', title: `legacy keep-alive off: ${oneName}`, ...one, ...base, keepAlive: false, shares: COALESCED_AND_CACHED },
    { id: 'sandbox', title: `over the real sandbox: ${oneName}`, ...one, ...base, upstream: 'sandbox', shares: COALESCED_AND_CACHED },
  ];
}
