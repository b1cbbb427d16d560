import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MiddlewareHandler } from 'hono';
import { GATEWAY_AGENT_PREFIX } from '../shared/package-version.js';
import { pathBelow, prefixOf } from '../shared/route-owners.js';

/**
 * SANDBOX_TRAFFIC_LOG: every v2 exchange the sandbox answers, appended as one JSON line to a file
 * of this process in the folder given, so that a run's whole traffic (every test file, every
 * gateway, in-process or not) can be checked afterwards against today's published documents:
 * the answers against their answer schemas, and v1gate's own requests against the request
 * schemas. Written synchronously: a process that is killed keeps every line it answered.
 * Mounted before the token check, so a request refused there (401, 4711, 429) is kept too: its
 * path and query are still checked, its body, never read, is marked unread.
 */
export interface TrafficRecord {
  method: string;
  /** The path below `/v2`, as it came (still percent-encoded). */
  path: string;
  /** The query string without its `?` (empty when none). */
  query: string;
  /** The request's content type, if it had a body. */
  requestType?: string;
  requestBody?: string;
  /** The request was refused before its body was read (its token, scopes or limit): what it would have sent is unknown. */
  bodyUnread?: true;
  /** Whether v1gate sent it (its User-Agent), rather than a test or a client calling v2 directly. */
  fromGateway: boolean;
  status: number;
  answer: string;
}

export const TRAFFIC_SUFFIX = '.v2-traffic.jsonl';

export function trafficRecorder(folder: string): MiddlewareHandler {
  const file = join(folder, `${process.pid}${TRAFFIC_SUFFIX}`);
  return async (c, next) => {
    await next();
    const cached = c.req.bodyCache.arrayBuffer as unknown as Promise<ArrayBuffer> | undefined;
    const bytes = cached ? await cached : undefined;
    const url = new URL(c.req.url);
    const record: TrafficRecord = {
      method: c.req.method,
      path: pathBelow(prefixOf('v2'), url.pathname),
      query: url.search.slice(1),
      ...(bytes && bytes.byteLength > 0
        ? { requestType: c.req.header('content-type') ?? '', requestBody: Buffer.from(bytes).toString('utf8') }
        : {}),
      ...(cached === undefined && hasBody(c.req.raw.headers) ? { bodyUnread: true as const } : {}),
      fromGateway: (c.req.header('user-agent') ?? '').startsWith(GATEWAY_AGENT_PREFIX),
      status: c.res.status,
      answer: await c.res.clone().text(),
    };
    appendFileSync(file, `${JSON.stringify(record)}\n`);
  };
}

/** Whether the request announced a body (its length, or a chunked one). */
function hasBody(headers: Headers): boolean {
  const length = headers.get('content-length');
  return (length !== null && length !== '0') || headers.has('transfer-encoding');
}
