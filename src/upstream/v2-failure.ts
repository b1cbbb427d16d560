import { errors as undiciErrors } from 'undici';
import { v2FailureKind } from '../../mappings/errors.js';
import type { V2Route } from '../v2-contract/v2-route.js';
import { parseRetryAfter } from '../shared/retry-after.js';
import { v2LimitKindOf } from '../ratelimit/limit-kind.js';
import { UpstreamUnavailable, V2Error, type V2FieldError } from './errors.js';

/**
 * A v2 error status → the typed failure. No raw HTTP status ever becomes a v1 code: a 5xx (the
 * service failed, maybe after applying a write) and a 4xx without a v2 error body (a proxy's page,
 * a 431 from a load balancer) are "unavailable", saying whether a write may have happened; the
 * statuses v1 has its own answers for (401, 403, 429) and v2's coded errors stay V2Errors.
 */
export function toV2Failure(route: V2Route, status: number, text: string, headers: AnswerHeaders): V2Error | UpstreamUnavailable {
  const error = toV2Error(status, text, headers);
  // The failure table's own reading of a status decides which kind of error this is.
  const kind = v2FailureKind(status, error.hasV2Code, error.fieldErrors.length > 0);
  if (kind === 'v2-failed') return new UpstreamUnavailable('failed', `The v2 service failed (HTTP ${status}).`, !route.reads);
  if (kind === 'v2-refused-uncoded')
    return new UpstreamUnavailable('refused', `The v2 service answered HTTP ${status} without a v2 error.`, false);
  return error;
}

/** The answer's headers as undici gives them (lower-case names). */
export type AnswerHeaders = Record<string, string | string[] | undefined>;

/** The service's tracking id of an answer, which its support asks for: its `x-zm-trackingid` header's value, when it is one short text. */
export function trackingIdOf(value: AnswerHeaders[string]): string | undefined {
  return typeof value === 'string' && value.length <= 200 ? value : undefined;
}

function toV2Error(status: number, text: string, headers: AnswerHeaders): V2Error & { hasV2Code: boolean } {
  let body: { code?: unknown; message?: unknown; errors?: unknown } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // Proxies in front of the service may answer HTML; keep the status, invent nothing.
  }
  const code = typeof body.code === 'number' ? body.code : status;
  const message = typeof body.message === 'string' ? body.message : `The v2 service answered HTTP ${status}.`;
  const fieldErrors = Array.isArray(body.errors)
    ? (body.errors as unknown[]).filter((e): e is V2FieldError => {
        const item = e as Partial<V2FieldError> | null;
        return typeof item?.field === 'string' && typeof item?.message === 'string';
      })
    : [];
  const type = headers['x-ratelimit-type'];
  const answer = {
    limitKind: status === 429 ? v2LimitKindOf(message, typeof type === 'string' ? type : undefined) : undefined,
    trackingId: trackingIdOf(headers['x-zm-trackingid']),
  };
  return Object.assign(new V2Error(status, code, message, fieldErrors, parseRetryAfter(headers['retry-after']), answer), {
    hasV2Code: typeof body.code === 'number',
  });
}

export function toUnavailable(error: unknown): UpstreamUnavailable {
  if (error instanceof UpstreamUnavailable) return error;
  if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
    return new UpstreamUnavailable('timeout', 'The v2 service did not answer in time.', true);
  }
  if (error instanceof undiciErrors.ConnectTimeoutError) {
    return new UpstreamUnavailable('timeout', 'Could not connect to the v2 service in time.', false);
  }
  const code = (error as { code?: string }).code;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new UpstreamUnavailable('unreachable', 'The v2 service could not be reached.', false);
  }
  return new UpstreamUnavailable('unreachable', `The v2 service connection failed (${code ?? 'unknown error'}).`, true);
}
