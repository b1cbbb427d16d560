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
}

const meetingGet = { v1Path: '/v1/meeting/get', params: (s: Seeded) => ({ id: s.meetingId, host_id: s.userId }) };
const checkEmail = { v1Path: '/v1/user/checkemail', params: (s: Seeded) => ({ email: s.email }) };
const base = { upstream: 'fixed' as const, limiter: 'off' as const, keepAlive: true, halfLoad: true };

/** The one-call endpoint of the targets: /v1/meeting/get once served, else /v1/user/checkemail. */
export function buildCases(served: (v1Path: string) => boolean): BenchCase[] {
  const one = served(meetingGet.v1Path) ? meetingGet : checkEmail;
  const oneName = one.v1Path.replace('/v1', '');
  return [
    { id: 'meeting-get', title: 'one-call endpoint: meeting/get (aux cache warm)', ...meetingGet, ...base },
    // The same mix with the aux cache off: every get also reads the host's live meetings (2 v2 calls).
    { id: 'meeting-get-nocache', title: 'meeting/get, AUX_CACHE_TTL_MS=0', ...meetingGet, ...base, env: { AUX_CACHE_TTL_MS: '0' } },
    { id: 'checkemail', title: 'single v2 call: user/checkemail', ...checkEmail, ...base },
    // Each request a different email: no call shared, one v2 call per v1 call on both sides.
    {
      id: 'checkemail-distinct',
      title: 'single v2 call, every request its own email',
      ...checkEmail,
      ...base,
      distinct: (n) => ({ email: `bench.${n}@example.com` }),
    },
    {
      id: 'user-get',
      title: 'several calls: user/get (+ settings)',
      v1Path: '/v1/user/get',
      params: (s) => ({ id: s.userId }),
      ...base,
    },
    {
      id: 'meeting-create',
      title: 'write: meeting/create',
      v1Path: '/v1/meeting/create',
      params: (s) => ({ host_id: s.userId, topic: 'Benchmark create', type: '2', start_time: '2030-07-01T15:00:00Z', duration: '30' }),
      ...base,
    },
    {
      id: 'xml',
      title: `XML answer: ${oneName} data_type=XML`,
      v1Path: one.v1Path,
      params: (s) => ({ ...one.params(s), data_type: 'XML' }),
      ...base,
    },
    { id: 'limiter-memory', title: `limiter in memory: ${oneName}`, ...one, ...base, limiter: 'memory' },
    { id: 'limiter-redis', title: `limiter in Redis: ${oneName}`, ...one, ...base, limiter: 'redis' },
    { id: 'keepalive-off', title: `legacy keep-alive off: ${oneName}`, ...one, ...base, keepAlive: false },
    { id: 'sandbox', title: `over the real sandbox: ${oneName}`, ...one, ...base, upstream: 'sandbox' },
  ];
}
