import { renderV1Error } from '../../v1/errors.js';
import { CONTENT_TYPE, type DataType } from '../../v1/serialize.js';
import { toV1Error } from './failures.js';

export interface ErrorAnswerOptions {
  /** v1 answered its errors with HTTP 200; a path outside v1's (a probe's 404, a crash's 500) says its own status. */
  status?: number;
  /** Beside the error's own (Retry-After, X-RateLimit-*): `connection: close` when the request's state is unknown. */
  headers?: Record<string, string>;
  /** The body's format: JSON unless the call asked for XML. */
  dataType?: DataType;
}

/**
 * The one builder of a v1 error's whole answer, for every part that answers one outside a v1
 * call's own rendering: any failure through the failure table (`toV1Error`) into v1's envelope,
 * the error's own headers, then `headers`.
 */
export function v1ErrorAnswer(failure: unknown, { status = 200, headers = {}, dataType = 'JSON' }: ErrorAnswerOptions = {}): Response {
  const error = toV1Error(failure);
  return new Response(renderV1Error(error, dataType), {
    status,
    headers: { ...error.headers, ...headers, 'content-type': CONTENT_TYPE[dataType] },
  });
}
