import { UpstreamUnavailable, V2Error } from './errors.js';
import { qpsRemaining, type Exchanged } from './exchange.js';
import { toV2Failure, trackingIdOf } from './v2-failure.js';
import type { Call } from './v2-call.js';
import type { OutboundGate } from './v2-request.js';

/** What the end of one attempt of a v2 call makes (client.ts): its answer, read or failed, and its observation. */

/** The exchange's answer: a v2 JSON object, or the typed failure its status and body make; what the answer says of the budget, told to the gate. */
export function answerOf<T>(call: Call, response: Exchanged, gate: OutboundGate): T {
  const { credentials, request } = call;
  const { route } = request.target;
  const remaining = qpsRemaining(response);
  if (remaining !== undefined) gate.remaining?.(credentials, request.target, remaining);
  const { statusCode, text } = response;
  call.trackingId = trackingIdOf(response.header('x-zm-trackingid'));
  if (statusCode < 200 || statusCode >= 300) {
    const failure = toV2Failure(route, statusCode, text, response.headers);
    if (failure instanceof V2Error) call.limitKind = failure.limitKind;
    throw failure;
  }
  if (text === '') return undefined as T;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UpstreamUnavailable('bad-response', 'The v2 service answered with a body that is not JSON.', !route.reads);
  }
  // Every v2 answer is a JSON object: a `[]` or a string where one is due is no answer at all,
  // never a success with nothing in it.
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UpstreamUnavailable('bad-response', 'The v2 service answered with something that is not a v2 answer.', !route.reads);
  }
  // Kept for the copies of the GETs that joined this one (coalesce.ts); a plain field, read only by them.
  call.text = text;
  return parsed as T;
}

/**
 * The attempt's end, told to its span and to `onResult` (logs, metrics) before its outcome. Two
 * literals of one field order, with and without the query: a spread of `{}` or `{ query }` into
 * the object made and copied one more object per call.
 */
export function observe(call: Call): void {
  const { request, trace } = call;
  const { onResult } = request;
  const finish = trace?.finish;
  if (!onResult && !finish) return;
  finish?.(call.status);
  if (!onResult) return;
  const { route, path } = request.target;
  const { method } = route;
  const ms = performance.now() - call.started;
  const { query } = request;
  const undo = request.priority === 'undo';
  const { status, trackingId, limitKind } = call;
  onResult(
    query === undefined
      ? { route, method, path, undo, status, ms, trackingId, limitKind }
      : { route, method, path, query, undo, status, ms, trackingId, limitKind },
  );
}
