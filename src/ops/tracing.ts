import type { Logger } from 'pino';
import { propagateOnly, type CallTrace, type CallTracer } from '../shared/trace-context.js';
import type { SpanRecorder } from './span-export.js';
import type { TracingConfig } from './tracing-config.js';

/**
 * A gateway's tracing: every v1 call continues its client's W3C trace (or starts one) and passes it
 * on to v2; with an OTLP endpoint configured, its spans are also recorded and exported. The
 * OpenTelemetry SDK is imported only then (`load`), so a gateway without an endpoint never has it in
 * memory and pays only for the trace context (src/shared/trace-context.ts) on each call.
 */
export class Tracing implements CallTracer {
  private recorder: SpanRecorder | undefined;

  constructor(
    private readonly config: TracingConfig,
    private readonly exporting: { version: string; worker: number | undefined; logger: Logger },
  ) {}

  /** Whether spans are exported (an endpoint is configured). */
  get exports(): boolean {
    return this.config.export !== undefined;
  }

  /** Loads the SDK and starts exporting, when an endpoint is configured: before the port opens, so no call goes unrecorded. */
  async load(): Promise<void> {
    if (!this.config.export || this.recorder) return;
    const { startSpanExport } = await import('./span-export.js');
    this.recorder = startSpanExport(this.config.export, this.exporting);
  }

  start(traceparent: string | undefined, tracestate: string | undefined): CallTrace {
    return (this.recorder ?? propagateOnly).start(traceparent, tracestate);
  }

  /** Exports the spans still queued (bounded by the exporter's timeout) and stops: the last step of a drain. */
  async shutdown(): Promise<void> {
    const recorder = this.recorder;
    this.recorder = undefined;
    await recorder?.shutdown();
  }
}
