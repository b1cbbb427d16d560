import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/**
 * An OpenTelemetry collector's OTLP/HTTP traces receiver, as small as a test needs: it accepts
 * `POST /v1/traces` in OTLP's JSON encoding (ExportTraceServiceRequest, ids as hex), answers 200
 * `{}` as a collector does, and keeps each body as sent (for secret checks) and each span read.
 */

/** An attribute value of OTLP/JSON (AnyValue); 64-bit integers come as strings. */
interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
}

interface KeyValue {
  key: string;
  value: AnyValue;
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  traceState?: string;
  name: string;
  kind: number;
  attributes?: KeyValue[];
  status?: { code?: number; message?: string };
}

interface ExportTraceServiceRequest {
  resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

/** One span as received, its attributes and its resource's as plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  traceState: string | undefined;
  name: string;
  /** OTLP's SpanKind: 2 server, 3 client. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  status: { code: number; message: string | undefined };
  resource: Record<string, string | number | boolean>;
}

export const SERVER = 2;
export const CLIENT = 3;

export interface OtlpReceiver {
  /** The base endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`): spans are posted to `<it>/v1/traces`. */
  endpoint: string;
  spans: ReceivedSpan[];
  /** Every request body, decompressed, as text. */
  bodies: string[];
  /** The content types requests came with. */
  contentTypes: string[];
  /** Resolves once `count` spans matching `where` have arrived (rejects after `timeoutMs`). */
  waitFor(where: (span: ReceivedSpan) => boolean, count?: number, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const contentTypes: string[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      const text = body.toString('utf8');
      bodies.push(text);
      contentTypes.push(req.headers['content-type'] ?? '');
      spans.push(...spansOf(JSON.parse(text) as ExportTraceServiceRequest));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const waitFor: OtlpReceiver['waitFor'] = (where, count = 1, timeoutMs = 20_000) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = spans.filter(where);
        if (found.length < count) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`${spans.filter(where).length} of ${count} spans arrived in ${timeoutMs} ms (${spans.length} in all)`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });

  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    bodies,
    contentTypes,
    waitFor,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      resolve(req.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body);
    });
    req.on('error', reject);
  });
}

function spansOf(request: ExportTraceServiceRequest): ReceivedSpan[] {
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? '',
        traceState: span.traceState,
        name: span.name,
        kind: span.kind,
        attributes: attributesOf(span.attributes),
        status: { code: span.status?.code ?? 0, message: span.status?.message },
        resource,
      })),
    );
  });
}

function attributesOf(list: KeyValue[] | undefined): Record<string, string | number | boolean> {
  const attributes: Record<string, string | number | boolean> = {};
  for (const { key, value } of list ?? []) {
    if (value.stringValue !== undefined) attributes[key] = value.stringValue;
    else if (value.boolValue !== undefined) attributes[key] = value.boolValue;
    else if (value.intValue !== undefined) attributes[key] = Number(value.intValue);
    else if (value.doubleValue !== undefined) attributes[key] = value.doubleValue;
  }
  return attributes;
}
