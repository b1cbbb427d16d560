import { closeWaitOf } from './close-wait.js';
import type { Fault, FaultUpstream } from './fault-upstream.js';

/**
 * Every way a v2 service can misbehave that the hostile tests drive through a path of the gateway
 * (the v2 client, shadow mode's comparisons, a cluster's worker): each error status, a 429, a
 * reset mid-headers, mid-body and before any answer, a hang, a garbage body, an HTML error page,
 * a body dripped past the deadline. Named for `it.each`.
 */
export const V2_FAULTS: readonly (readonly [string, Fault])[] = [
  ...[400, 401, 403, 404, 405, 409, 410, 413, 422, 500, 501, 502, 503, 504].map(
    (status) => [`HTTP ${status}`, { kind: 'answer', status, body: `{"code":${status},"message":"from the fault"}` }] as const,
  ),
  ['429 with Retry-After', { kind: 'answer', status: 429, body: '{"code":429,"message":"too many"}', headers: { 'retry-after': '1' } }],
  ['a reset mid-headers', { kind: 'reset-mid-headers' }],
  ['a reset mid-body', { kind: 'reset-after-apply' }],
  ['a reset before any answer', { kind: 'reset' }],
  ['a hang', { kind: 'hang' }],
  ['a garbage body', { kind: 'answer', status: 200, body: '\u0000\u00ff<html>not json' }],
  [
    'an HTML error page',
    { kind: 'answer', status: 502, body: '<html><body>Bad gateway</body></html>', headers: { 'content-type': 'text/html' } },
  ],
  ['a slow body past the deadline', { kind: 'slow-body', body: '{"id":"x","email":"slow@example.com","type":1}', everyMs: 100 }],
];

/** The v2 path a v1 `user/get` reads: where each fault is put. */
export const USER_GET = /^\/users\/[^/]+$/;

/** Every try of `user/get`'s v2 call meets `fault` (a safe retry, a token renewed after a 401, included). */
export function faultUserGet(faults: FaultUpstream, fault: Fault): void {
  faults.rules.length = 0;
  faults.seen.length = 0;
  faults.rules.push({ method: 'GET', path: USER_GET, fault });
}

/** v2 well again: no rule, nothing seen. */
export function healUpstream(faults: FaultUpstream): void {
  faults.rules.length = 0;
  faults.seen.length = 0;
}

/** Waits (up to 5 s) until process `pid` holds no connection in CLOSE-WAIT: one a peer has just closed may be seen in between. */
export async function noCloseWait(pid: number = process.pid): Promise<number> {
  for (let waited = 0; waited < 5_000 && closeWaitOf(pid) > 0; waited += 100) await new Promise((r) => setTimeout(r, 100));
  return closeWaitOf(pid);
}
