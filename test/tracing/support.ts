import type { GatewayProcess } from '../support/process-gateway.js';

/** What the tracing tests read of a v1 answer. */
export interface TracedAnswer {
  body: any;
  /** The answer's `traceresponse` header. */
  traceresponse: string;
  requestId: string;
  /** x-v2-calls: v2 requests sent for it. */
  v2Calls: number;
  /** x-v1gate-worker (WORKERS>1). */
  worker: string | null;
}

let calls = 0;

/** A v1 call as a legacy client posts it, with trace headers of its own (and a request id to find its log line). */
export async function callWithTrace(
  gatewayUrl: string,
  path: string,
  params: Record<string, string>,
  trace: { traceparent?: string; tracestate?: string },
): Promise<TracedAnswer> {
  const requestId = `traced-${process.pid}-${++calls}`;
  const response = await fetch(`${gatewayUrl}/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': requestId, ...trace },
    body: new URLSearchParams(params).toString(),
  });
  return {
    body: await response.json(),
    traceresponse: response.headers.get('traceresponse') ?? '',
    requestId,
    v2Calls: Number(response.headers.get('x-v2-calls')),
    worker: response.headers.get('x-v1gate-worker'),
  };
}

/** The trace id of a `traceparent` (or `traceresponse`) header. */
export const traceIdOf = (header: string | string[] | undefined): string | undefined =>
  typeof header === 'string' ? /^00-([\da-f]{32})-[\da-f]{16}-[\da-f]{2}$/.exec(header)?.[1] : undefined;

/** The span id a `traceparent` names as the parent (or a `traceresponse` names as the call's own). */
export const parentIdOf = (header: string | string[] | undefined): string | undefined =>
  typeof header === 'string' ? /^00-[\da-f]{32}-([\da-f]{16})-[\da-f]{2}$/.exec(header)?.[1] : undefined;

type LogLine = { reqId?: string; trace_id?: string; span_id?: string; msg?: string };

/** The log line of the call with this request id, read from the child's output as it arrives (lines are written within 0.5 s). */
export async function lineOf(child: GatewayProcess, requestId: string, withinMs = 5_000): Promise<LogLine | undefined> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const line = child
      .output()
      .split('\n')
      .filter((text) => text.startsWith('{'))
      .map((text) => JSON.parse(text) as LogLine)
      .find((l) => l.reqId === requestId);
    if (line || Date.now() > deadline) return line;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
