import pino, { type Logger } from 'pino';
import type { CallObserver, V1CallRecord } from '../v1-facade/observe.js';
import { keyHash } from './metrics.js';

/**
 * Structured logs: one JSON line per v1 call. Secrets are removed by pino's `redact`
 * configuration, so a field added to a log line later is covered by the same list, not by
 * whoever remembers to strip it.
 */

export const REDACTED = '[Redacted]';

/** Any field with one of these names, at the top or one/two levels down, never reaches a log line. */
const SECRET_FIELDS = ['api_secret', 'apiSecret', 'password', 'token', 'jwt', 'authorization', 'Authorization', 'access_token', 'secret'];
export const REDACT_PATHS = SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]);

export interface LoggerOptions {
  level: string;
  /** A file to append to (tests, or an operator's choice); unset: standard output. */
  file?: string | undefined;
  /** Human-readable output; default: when standard output is a terminal. */
  pretty?: boolean;
}

export function createLogger(options: LoggerOptions): Logger {
  const settings = {
    level: options.level,
    base: { service: 'v1gate' },
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  if (options.file) return pino(settings, pino.destination({ dest: options.file, sync: true, mkdir: true }));
  // A person at a terminal gets readable lines (redacted all the same: redaction runs before the
  // transport); a pipe or a log collector gets one JSON object per line.
  if (options.pretty ?? process.stdout.isTTY)
    return pino({ ...settings, transport: { target: 'pino-pretty', options: { colorize: true } } });
  // Buffered (4 KiB) and asynchronous: a synchronous write per line cost ~30 µs more CPU per v1
  // call than this (`LOG_LEVEL=info npm run bench:quick -- --only checkemail --no-write`); the
  // gateway flushes on close.
  return pino(settings, pino.destination({ dest: 1, sync: false, minLength: 4096 }));
}

/** The facade observer that writes the call's line: warn for v1 errors, info otherwise. */
export function callLogObserver(logger: Logger): CallObserver {
  return (record: V1CallRecord) => {
    const line = {
      reqId: record.requestId,
      method: record.method,
      endpoint: record.endpoint ?? null,
      path: record.endpoint === undefined ? record.rawPath : undefined,
      code: record.errorCode ?? 0,
      ms: Math.round(record.ms * 10) / 10,
      keyHash: record.apiKey === undefined ? undefined : keyHash(record.apiKey),
      params: record.params,
      v2: record.v2Calls.map((call) => ({ method: call.method, path: call.path, status: call.status, ms: Math.round(call.ms * 10) / 10 })),
    };
    if (record.errorCode === undefined) logger.info(line, 'v1 call');
    else logger.warn(line, 'v1 call failed');
  };
}
