import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, createTraceState, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type ReadableSpan,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVICE_INSTANCE_ID,
  ATTR_SERVICE_NAME,
  ATTR_SERVICE_VERSION,
} from '@opentelemetry/semantic-conventions';
import type { Logger } from 'pino';
import { ConfigError } from '../shared/env.js';
import {
  SAMPLED,
  formatTraceparent,
  parseTraceparent,
  parseTracestate,
  type CallOutcome,
  type CallTrace,
  type CallTracer,
  type TracedRoute,
  type V2AttemptTrace,
} from '../shared/trace-context.js';
import type { SamplerName, SpanExport, TlsFile } from './tracing-config.js';

/**
 * Spans through the OpenTelemetry SDK, exported over OTLP/HTTP (JSON) in batches: a server span per
 * v1 call, a client span per v2 attempt under it. Loaded only when an endpoint is configured
 * (tracing.ts imports this module dynamically): without one, none of the SDK is in the process.
 *
 * The provider is this gateway's own, never registered as the global one: two gateways in one
 * process (tests) keep their spans apart, and nothing else in the process starts exporting.
 * Spans hold no param value and no credential: the v1 span has the method, the endpoint's route,
 * the v1 error code, the data type and the v2 call count; a v2 span the method, the route's
 * template (never the path, which holds ids), the status and the attempt.
 */

/** Names of the semantic conventions still in development (their constants may change; the names are what collectors read). */
const URL_TEMPLATE = 'url.template';
const PROCESS_PID = 'process.pid';

/** Who exports: what the resource of every span says about this process. */
export interface Exporting {
  version: string;
  /** The cluster worker's number (WORKERS>1). */
  worker: number | undefined;
  logger: Logger;
}

export interface SpanRecorder extends CallTracer {
  /** Exports what is queued (at most the exporter's timeout), then stops. */
  shutdown(): Promise<void>;
}

export function startSpanExport(config: SpanExport, exporting: Exporting): SpanRecorder {
  const exporter = new ReportingExporter(otlpExporter(config), exporting.logger);
  const provider = new TracerProvider({
    resource: defaultResource().merge(resourceFromAttributes(resourceAttributes(config, exporting))),
    sampler: samplerOf(config.sampler.name, config.sampler.ratio),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter,
        maxQueueSize: config.batch.maxQueueSize,
        maxExportBatchSize: config.batch.maxExportBatchSize,
        scheduledDelayMillis: config.batch.scheduledDelayMs,
        exportTimeoutMillis: config.batch.exportTimeoutMs,
      }),
    ],
  });
  const tracer = provider.getTracer('v1gate', exporting.version);
  return {
    start: (traceparent, tracestate) => startCall(tracer, traceparent, tracestate),
    shutdown: () => withinMs(provider.shutdown(), config.timeoutMs),
  };
}

/** The span of a v1 call, under the client's span when its `traceparent` is valid, else the root of a new trace. */
function startCall(tracer: Tracer, traceparent: string | undefined, tracestateHeader: string | undefined): CallTrace {
  const parent = parseTraceparent(traceparent);
  const tracestate = parent ? parseTracestate(tracestateHeader) : undefined;
  const context = parent
    ? trace.setSpanContext(ROOT_CONTEXT, {
        traceId: parent.traceId,
        spanId: parent.parentId,
        traceFlags: parent.flags & SAMPLED,
        isRemote: true,
        ...(tracestate === undefined ? {} : { traceState: createTraceState(tracestate) }),
      })
    : ROOT_CONTEXT;
  return new RecordedTrace(tracer, tracer.startSpan('v1 call', { kind: SpanKind.SERVER }, context), tracestate);
}

class RecordedTrace implements CallTrace {
  readonly traceId: string;
  readonly spanId: string;
  readonly recording: boolean;
  readonly traceresponse: string;
  /** The v1 span as the parent of each v2 span. */
  private readonly context: Context;

  constructor(
    private readonly tracer: Tracer,
    private readonly span: Span,
    private readonly tracestate: string | undefined,
  ) {
    const { traceId, spanId, traceFlags } = span.spanContext();
    this.traceId = traceId;
    this.spanId = spanId;
    this.recording = span.isRecording();
    this.traceresponse = formatTraceparent(traceId, spanId, traceFlags);
    this.context = trace.setSpan(ROOT_CONTEXT, span);
  }

  attempt(route: TracedRoute, attempt: number, undo: boolean): V2AttemptTrace {
    const span = this.tracer.startSpan(
      `${route.method} ${route.template}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          [ATTR_HTTP_REQUEST_METHOD]: route.method,
          [URL_TEMPLATE]: route.template,
          'v1gate.v2.attempt': attempt,
          ...(undo ? { 'v1gate.v2.undo': true } : {}),
        },
      },
      this.context,
    );
    const { traceId, spanId, traceFlags } = span.spanContext();
    return {
      traceparent: formatTraceparent(traceId, spanId, traceFlags),
      tracestate: this.tracestate,
      finish: span.isRecording() ? (status) => endV2Span(span, status) : undefined,
    };
  }

  end(outcome: CallOutcome): void {
    const { span } = this;
    const route = outcome.endpoint === undefined ? undefined : `/v1${outcome.endpoint}`;
    // The method and the route: a path no endpoint matched is not named (it could be anything a client sent).
    span.updateName(route ? `${outcome.method} ${route}` : outcome.method);
    span.setAttributes({
      [ATTR_HTTP_REQUEST_METHOD]: outcome.method,
      [ATTR_HTTP_RESPONSE_STATUS_CODE]: 200,
      'v1gate.v1.data_type': outcome.dataType,
      'v1gate.v2.calls': outcome.v2Calls,
      ...(route === undefined ? {} : { [ATTR_HTTP_ROUTE]: route }),
      ...(outcome.errorCode === undefined ? {} : { 'v1gate.v1.error_code': outcome.errorCode }),
    });
    span.end();
  }
}

/** A v2 attempt's outcome: its status, and an error for no answer or a 4XX/5XX (the conventions' rule for client spans). */
function endV2Span(span: Span, status: number): void {
  if (status > 0) span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
  if (status === 0 || status >= 400) span.setStatus({ code: SpanStatusCode.ERROR, message: status === 0 ? 'no answer' : `HTTP ${status}` });
  span.end();
}

function resourceAttributes(config: SpanExport, exporting: Exporting): Record<string, string | number> {
  const own = config.resourceAttributes[ATTR_SERVICE_INSTANCE_ID];
  const worker = exporting.worker;
  return {
    ...config.resourceAttributes,
    [ATTR_SERVICE_NAME]: config.serviceName,
    [ATTR_SERVICE_VERSION]: exporting.version,
    // Each process exports its own spans; under WORKERS>1 an instance id the operator set still tells the workers apart.
    [ATTR_SERVICE_INSTANCE_ID]: own === undefined ? randomUUID() : worker === undefined ? own : `${own}-${worker}`,
    [PROCESS_PID]: process.pid,
    ...(worker === undefined ? {} : { 'v1gate.worker': worker }),
  };
}

function samplerOf(name: SamplerName, ratio: number): Sampler {
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
  }
}

function otlpExporter(config: SpanExport): OTLPTraceExporter {
  return new OTLPTraceExporter({
    url: config.url,
    headers: config.headers,
    timeoutMillis: config.timeoutMs,
    compression: config.compression === 'gzip' ? CompressionAlgorithm.GZIP : CompressionAlgorithm.NONE,
    // Given even without TLS files: the exporter would otherwise read its own certificate variables, unchecked.
    httpAgentOptions: {
      keepAlive: true,
      ...tlsFile('ca', config.tls.ca),
      ...tlsFile('cert', config.tls.cert),
      ...tlsFile('key', config.tls.key),
    },
  });
}

/** A PEM file for the agent; unreadable, it stops the start with one line naming its variable. */
function tlsFile(option: 'ca' | 'cert' | 'key', file: TlsFile | undefined): Record<string, Buffer> {
  if (!file) return {};
  try {
    return { [option]: readFileSync(file.path) };
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'unreadable';
    throw new ConfigError([{ variable: file.variable, message: `cannot read ${file.path} (${code})` }]);
  }
}

/** How often at most a failing export is written to the log. */
const FAILURE_LOG_INTERVAL_MS = 60_000;

/**
 * The exporter, telling the gateway's log when exports fail (the SDK itself would only tell its
 * global diagnostic logger, silent unless someone registers one): the first failure, then at most
 * one line a minute with the spans lost since.
 */
class ReportingExporter implements SpanExporter {
  private lost = 0;
  private lastLoggedAt = -Infinity;

  constructor(
    private readonly inner: SpanExporter,
    private readonly logger: Logger,
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      if (result.code !== ExportResultCode.SUCCESS) this.failed(spans.length, result.error);
      done(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }

  private failed(spans: number, error: Error | undefined): void {
    this.lost += spans;
    const now = performance.now();
    if (now - this.lastLoggedAt < FAILURE_LOG_INTERVAL_MS) return;
    this.lastLoggedAt = now;
    this.logger.warn({ spansLost: this.lost, reason: error?.message }, 'tracing: spans could not be exported to the OTLP endpoint');
    this.lost = 0;
  }
}

/** `pending`, or done after `ms` without it (a collector that does not answer must not hold the shutdown). */
async function withinMs(pending: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms).unref()));
  try {
    await Promise.race([pending.catch(() => {}), late]);
  } finally {
    clearTimeout(timer);
  }
}
