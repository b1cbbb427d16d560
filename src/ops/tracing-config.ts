import { z } from 'zod';
import { envSection, numberText, onOff, wholeNumber } from '../shared/env.js';

/**
 * The tracing section of the configuration: OpenTelemetry's own variables
 * (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/ and the OTLP
 * exporter's), read by the gateway's one loader (src/config.ts) with every other section, so `check`
 * and `--help` know them. Spans are exported only when an OTLP endpoint is set; the SDK reads none of
 * these itself: everything it is given comes from here.
 */

/** The samplers of the specification that v1gate offers (the remote ones need services it does not talk to). */
export const SAMPLERS = [
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
  'always_on',
  'always_off',
  'traceidratio',
] as const;
export type SamplerName = (typeof SAMPLERS)[number];

/** A TLS file for the exporter's connection, with the variable that named it (an unreadable one is reported under that name). */
export interface TlsFile {
  variable: string;
  path: string;
}

/** Where and how spans are exported. */
export interface SpanExport {
  /** The OTLP/HTTP traces URL (`…/v1/traces`). */
  url: string;
  /** Sent with every export (a collector's API key): secrets, never logged. */
  headers: Record<string, string>;
  timeoutMs: number;
  compression: 'gzip' | 'none';
  tls: { ca: TlsFile | undefined; cert: TlsFile | undefined; key: TlsFile | undefined };
  serviceName: string;
  /** OTEL_RESOURCE_ATTRIBUTES, decoded. */
  resourceAttributes: Record<string, string>;
  sampler: { name: SamplerName; ratio: number };
  batch: { maxQueueSize: number; maxExportBatchSize: number; scheduledDelayMs: number; exportTimeoutMs: number };
}

export interface TracingConfig {
  /** Undefined: no span is recorded and the SDK is never loaded; the trace context is still passed on to v2. */
  export: SpanExport | undefined;
}

const url = z.url({ error: 'must be a URL such as http://collector:4318' });
const protocol = z
  .string()
  .trim()
  .pipe(z.literal('http/json', { error: 'v1gate exports OTLP over HTTP as JSON: must be http/json (or unset)' }));
const compression = z.enum(['gzip', 'none'], { error: 'must be gzip or none' });
const path = z.string().min(1);

/** One variable and its traces-only counterpart (which wins when both are set), as the OTLP exporter specification pairs them. */
const VARIABLES = {
  OTEL_SDK_DISABLED: onOff.default(false).describe('true: export no spans, whatever else is set; default false'),
  OTEL_TRACES_EXPORTER: z
    .enum(['otlp', 'none'], { error: 'must be otlp or none' })
    .default('otlp')
    .describe('otlp (spans go to the OTLP endpoint, when one is set) or none; default otlp'),
  OTEL_EXPORTER_OTLP_ENDPOINT: url
    .optional()
    .describe(
      'the OpenTelemetry collector (OTLP/HTTP, e.g. http://collector:4318); spans go to <it>/v1/traces; unset: no span is recorded and the SDK is not loaded (the trace context is still passed on)',
    ),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: url
    .optional()
    .describe('the full OTLP/HTTP traces URL, used as is (wins over OTEL_EXPORTER_OTLP_ENDPOINT)'),
  OTEL_EXPORTER_OTLP_PROTOCOL: protocol
    .optional()
    .describe(
      "http/json (OTLP's JSON encoding, which every OTLP/HTTP receiver accepts), the only protocol v1gate exports with; default http/json",
    ),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: protocol.optional().describe('the same, for traces only'),
  OTEL_EXPORTER_OTLP_HEADERS: z
    .string()
    .optional()
    .describe("headers sent with every export, key=value,... with %-encoded values (a collector's API key); never logged"),
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: z.string().optional().describe('the same, for traces only (a key set in both: this one wins)'),
  OTEL_EXPORTER_OTLP_TIMEOUT: wholeNumber(1, 600_000)
    .optional()
    .describe('how long one export may take (ms), also the longest a shutdown waits for the last spans; default 10000'),
  OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: wholeNumber(1, 600_000).optional().describe('the same, for traces only'),
  OTEL_EXPORTER_OTLP_COMPRESSION: compression.optional().describe('gzip or none; default none'),
  OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: compression.optional().describe('the same, for traces only'),
  OTEL_EXPORTER_OTLP_CERTIFICATE: path.optional().describe("PEM file of the CA that signed the collector's certificate"),
  OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE: path.optional().describe('the same, for traces only'),
  OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE: path.optional().describe('PEM file of the client certificate (mutual TLS)'),
  OTEL_EXPORTER_OTLP_TRACES_CLIENT_CERTIFICATE: path.optional().describe('the same, for traces only'),
  OTEL_EXPORTER_OTLP_CLIENT_KEY: path.optional().describe("PEM file of the client certificate's private key (mutual TLS)"),
  OTEL_EXPORTER_OTLP_TRACES_CLIENT_KEY: path.optional().describe('the same, for traces only'),
  OTEL_SERVICE_NAME: z.string().trim().min(1).optional().describe('service.name of the spans; default v1gate'),
  OTEL_RESOURCE_ATTRIBUTES: z
    .string()
    .optional()
    .describe('more resource attributes, key=value,... with %-encoded values (deployment.environment.name=prod)'),
  OTEL_TRACES_SAMPLER: z
    .enum(SAMPLERS, { error: `must be one of ${SAMPLERS.join(', ')}` })
    .default('parentbased_always_on')
    .describe(`${SAMPLERS.join(', ')}; default parentbased_always_on`),
  OTEL_TRACES_SAMPLER_ARG: numberText
    .pipe(z.number().min(0, 'must be from 0 to 1').max(1, 'must be from 0 to 1'))
    .optional()
    .describe('the share of traces the traceidratio samplers keep, 0 to 1; default 1'),
  OTEL_BSP_SCHEDULE_DELAY: wholeNumber(1, 3_600_000).default(5_000).describe('spans are exported at least this often (ms); default 5000'),
  OTEL_BSP_EXPORT_TIMEOUT: wholeNumber(1, 600_000)
    .default(30_000)
    .describe('how long the batch processor waits for one export (ms); default 30000'),
  OTEL_BSP_MAX_QUEUE_SIZE: wholeNumber(1, 65_536)
    .default(2_048)
    .describe('spans waiting for export per process, at most; more are dropped (never waited for); default 2048'),
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: wholeNumber(1, 65_536).default(512).describe('spans per export, at most the queue size; default 512'),
};

type Variable = keyof typeof VARIABLES;

export const TRACING_SETTINGS = envSection({
  title: 'Tracing (OpenTelemetry: spans exported over OTLP/HTTP)',
  variables: VARIABLES,
  secret: [
    'OTEL_EXPORTER_OTLP_ENDPOINT',
    'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    'OTEL_EXPORTER_OTLP_HEADERS',
    'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
  ],
  build(e, problem): TracingConfig | undefined {
    const list = (variable: Variable, text: string | undefined) => keyValueList(text, (message) => problem(variable, message));
    const headers = {
      ...list('OTEL_EXPORTER_OTLP_HEADERS', e.OTEL_EXPORTER_OTLP_HEADERS),
      ...list('OTEL_EXPORTER_OTLP_TRACES_HEADERS', e.OTEL_EXPORTER_OTLP_TRACES_HEADERS),
    };
    const resourceAttributes = list('OTEL_RESOURCE_ATTRIBUTES', e.OTEL_RESOURCE_ATTRIBUTES);
    if (e.OTEL_BSP_MAX_EXPORT_BATCH_SIZE > e.OTEL_BSP_MAX_QUEUE_SIZE) {
      problem('OTEL_BSP_MAX_EXPORT_BATCH_SIZE', `must be at most OTEL_BSP_MAX_QUEUE_SIZE (${e.OTEL_BSP_MAX_QUEUE_SIZE})`);
    }
    const tracesUrl = e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (e.OTEL_EXPORTER_OTLP_ENDPOINT && tracesUrlOf(e.OTEL_EXPORTER_OTLP_ENDPOINT));
    if (!tracesUrl || e.OTEL_SDK_DISABLED || e.OTEL_TRACES_EXPORTER === 'none') return { export: undefined };
    const tls = (specific: Variable, general: Variable): TlsFile | undefined => {
      const value = (e[specific] as string | undefined) ?? (e[general] as string | undefined);
      return value === undefined ? undefined : { variable: e[specific] === undefined ? general : specific, path: value };
    };
    return {
      export: {
        url: tracesUrl,
        headers,
        timeoutMs: e.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT ?? e.OTEL_EXPORTER_OTLP_TIMEOUT ?? 10_000,
        compression: e.OTEL_EXPORTER_OTLP_TRACES_COMPRESSION ?? e.OTEL_EXPORTER_OTLP_COMPRESSION ?? 'none',
        tls: {
          ca: tls('OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE', 'OTEL_EXPORTER_OTLP_CERTIFICATE'),
          cert: tls('OTEL_EXPORTER_OTLP_TRACES_CLIENT_CERTIFICATE', 'OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE'),
          key: tls('OTEL_EXPORTER_OTLP_TRACES_CLIENT_KEY', 'OTEL_EXPORTER_OTLP_CLIENT_KEY'),
        },
        serviceName: e.OTEL_SERVICE_NAME ?? resourceAttributes['service.name'] ?? 'v1gate',
        resourceAttributes,
        sampler: { name: e.OTEL_TRACES_SAMPLER, ratio: e.OTEL_TRACES_SAMPLER_ARG ?? 1 },
        batch: {
          maxQueueSize: e.OTEL_BSP_MAX_QUEUE_SIZE,
          maxExportBatchSize: e.OTEL_BSP_MAX_EXPORT_BATCH_SIZE,
          scheduledDelayMs: e.OTEL_BSP_SCHEDULE_DELAY,
          exportTimeoutMs: e.OTEL_BSP_EXPORT_TIMEOUT,
        },
      },
    };
  },
});

/** `<endpoint>/v1/traces`: the specification's rule for the base endpoint (its path kept, one slash between). */
export function tracesUrlOf(endpoint: string): string {
  return `${endpoint.replace(/\/+$/, '')}/v1/traces`;
}

const LIST_KEY = /^[!#$%&'*+.^_`|~\dA-Za-z-]+$/;

/**
 * `key=value,key2=value2` (the W3C Baggage form the OpenTelemetry variables use, values %-encoded),
 * as an object; a malformed entry is a problem, named without its value (these may hold secrets).
 */
export function keyValueList(text: string | undefined, problem: (message: string) => void): Record<string, string> {
  const pairs: Record<string, string> = {};
  if (text === undefined) return pairs;
  for (const [index, entry] of text.split(',').entries()) {
    if (entry.trim() === '') continue;
    const equals = entry.indexOf('=');
    const key = entry.slice(0, Math.max(equals, 0)).trim();
    let value: string | undefined;
    try {
      value = equals === -1 ? undefined : decodeURIComponent(entry.slice(equals + 1).trim());
    } catch {
      value = undefined;
    }
    if (!LIST_KEY.test(key) || value === undefined) {
      problem(`entry ${index + 1} is not key=value with a %-encoded value`);
      continue;
    }
    pairs[key] = value;
  }
  return pairs;
}
