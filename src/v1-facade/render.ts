import type { ClientAddresses } from '../shared/private-access.js';
import { bugBehind } from '../shared/failure.js';
import { SecretValues } from '../shared/secrets.js';
import { failureKindOf, toV1Error } from '../translators/kit/failures.js';
import { renderV1Error } from '../v1/errors.js';
import { CONTENT_TYPE, dataTypeOf, serialize } from '../v1/serialize.js';
import { paramsWithoutCredentials, type CallObserver, type OwnTimeObserver, type V1CallRecord } from '../v1-steps/observe.js';
import type { V1Params } from '../v1-steps/params.js';
import type { V1Call } from '../v1-steps/v1-call.js';

/**
 * The last steps: whatever went wrong becomes the v1 error (through the failure table, the only
 * mapping), the answer is written in the data_type asked for, and the observers are told.
 */

/** The call failed: its v1 error, naming the v1 fields the failure is about. */
export function fail(call: V1Call, error: unknown): void {
  const { reached } = call;
  const v1Error = toV1Error(error, reached?.endpoint?.v1FieldOf, (value) => fieldHolding(reached?.params, value));
  call.error = v1Error;
  call.failure = failureKindOf(error);
  if (call.failure === 'internal') call.fault = bugBehind(error);
  call.answer = v1Error.toBody();
  Object.assign(call.headers, v1Error.headers);
  // Until the params are read, an error answers in the query's data_type (read leniently, and only then).
  call.dataType ??= dataTypeOf(new URLSearchParams(call.search).get('data_type') ?? undefined) ?? 'JSON';
}

/**
 * The v1 answer: HTTP 200 (as v1 answered, errors included), JSON or XML. A Response with its
 * headers as a plain object: under Node, the adaptor's own Response writes them as they are,
 * where `c.body` first copies several into a web Headers object.
 */
export function render(call: V1Call): Response {
  const dataType = (call.dataType ??= 'JSON');
  const { headers } = call;
  headers['content-type'] = CONTENT_TYPE[dataType];
  headers['x-v2-calls'] = String(call.upstreamCalls);
  headers['x-request-id'] = call.requestId;
  headers.traceresponse = call.trace.traceresponse;
  if (call.closeConnection) headers.connection = 'close';
  const text = call.error ? renderV1Error(call.error, dataType) : serialize(call.answer, dataType);
  const response = new Response(text, { status: 200, headers });
  const { trace } = call;
  if (trace.recording) {
    trace.end({
      method: call.c.req.method,
      endpoint: call.reached?.endpointPath,
      errorCode: call.error?.code,
      dataType,
      v2Calls: call.upstreamCalls,
    });
  }
  return response;
}

/** Tells the observers about the answered call (`tellingEach`, made once per app: one that throws is ignored). */
export function observe(call: V1Call, observers: CallObserver, addresses?: (c: V1Call['c']) => ClientAddresses): void {
  const record = recordOf(call, addresses);
  if (record) observers(record);
}

/**
 * Tells `observer` the call's own time when Node has handed the answer's last byte to the socket
 * (at once where no Node response carries it: `app.request` in tests). An answer whose connection
 * closed first was never written: it is not told. `on`, not `once`: a response finishes once, and
 * `once` wraps each listener in two objects more.
 */
export function observeOwnTime(call: V1Call, observer: OwnTimeObserver): void {
  const report = () => observer(call.reached?.endpointPath, call.ownTime.ownSeconds());
  const outgoing = call.c.env?.outgoing;
  if (outgoing) outgoing.on('finish', report);
  else report();
}

/** The one record observers read; undefined when the call was made without observers. */
function recordOf(call: V1Call, addresses?: (c: V1Call['c']) => ClientAddresses): V1CallRecord | undefined {
  const { startedAt, v2Calls, reached } = call;
  if (!startedAt || !v2Calls) return undefined;
  const params = reached?.params;
  // Without a judge of proxies (tests, an embedding), the socket's peer is the client.
  const peer = call.c.env?.incoming?.socket?.remoteAddress;
  const { client } = addresses?.(call.c) ?? { client: peer };
  return {
    peer,
    client,
    requestId: call.requestId,
    traceId: call.trace.traceId,
    spanId: call.trace.spanId,
    startedAt,
    method: call.c.req.method,
    rawPath: call.path,
    endpoint: reached?.endpointPath,
    apiKey: typeof params?.api_key === 'string' ? params.api_key : undefined,
    secrets: secretsOf(params?.api_secret),
    params: params && paramsWithoutCredentials(params),
    errorCode: call.error?.code,
    failure: call.failure,
    fault: call.fault,
    pairProven: reached?.proven === true || v2Calls.some((v2Call) => v2Call.status !== 0 && v2Call.status !== 401),
    answer: call.answer,
    dataType: call.dataType ?? 'JSON',
    ms: performance.now() - call.ownTime.startedAt,
    v2Calls,
  };
}

/** The api_secret values a request carried, for observers to redact by value. */
function secretsOf(value: V1Params[string] | undefined): SecretValues | undefined {
  if (typeof value === 'string') return new SecretValues([value]);
  return Array.isArray(value) ? new SecretValues(value) : undefined;
}

/** The v1 field whose value (or one of whose values) is `value`. */
function fieldHolding(params: V1Params | undefined, value: string): string | undefined {
  return Object.entries(params ?? {}).find(([, v]) => v === value || (Array.isArray(v) && v.includes(value)))?.[0];
}
