import pino, { type Logger } from 'pino';
import { LEVEL_OF_BLAME, levelOf } from '../../mappings/errors.js';
import type { CallObserver, V1CallRecord } from '../v1-steps/observe.js';
import { KnownSecrets, type Redactor, type SecretValues } from '../shared/secrets.js';
import { boundLogLine } from './log-volume.js';
import { onePass, topField, topFields } from './line-json.js';
import { callLineText, callLineTop, paramsOf, REDACTED, v2CallsOf } from './call-line.js';
import { framedWriter } from './logging-frame.js';
import { logDestination, stdoutWithoutWaiting, type LogDestination } from './log-destination.js';
import { timeField } from './log-time.js';

/**
 * Structured logs: one JSON line per v1 call. Secrets are removed where every line passes (pino's
 * `formatters.log`), by name and by value (src/shared/secrets.ts), so a field added to a log line
 * later is covered by the same redactor, not by whoever remembers to strip it. The call's own line,
 * written on every call, is redacted by the same redactor value by value as it is written
 * (src/ops/line-json.ts), with the same secrets as the formatter (`FORMATTER_SECRETS`).
 */

export { REDACTED };

/**
 * Every line passes through this: each secret (src/shared/secrets.ts: secret-named fields at any
 * depth, the configured secrets wherever they appear) becomes `[Redacted]`. One walk of the line
 * instead of pino's `redact` with wildcard paths (each name at three depths): those cost ~50 µs
 * per line against ~6 µs for the walk, about a sixth of a v1 call's CPU (100 000 call lines
 * written to a null stream in a loop; the walk costs about as much as no redaction at all).
 */
const lineRedactor =
  (secrets: KnownSecrets) =>
  (line: Record<string, unknown> & { [LINE_SECRETS]?: SecretValues }): Record<string, unknown> => {
    const known = secrets.redactor(REDACTED);
    const own = line[LINE_SECRETS];
    return (own ? known.with(own) : known).redact(withPlainError(line));
  };

/**
 * The line with its `err` as pino would write it (type, message, stack, cause and any field of its
 * own) made plain data, so the redactor, which walks plain objects only, walks it too: an error's
 * message may quote a secret (a URL, a header, a failed connection string). Only a bug's line
 * carries an error, so the copy costs nothing on the lines of calls.
 */
function withPlainError<L extends Record<string, unknown>>(line: L): L {
  const { err } = line;
  return err instanceof Error ? { ...line, err: JSON.parse(JSON.stringify(pino.stdSerializers.err(err))) as unknown } : line;
}

/** pino's serializer of `err` for an error; an `err` already made plain data (`withPlainError`) is written as it is. */
const errSerializer = (value: unknown): unknown => (value instanceof Error ? pino.stdSerializers.err(value) : value);

/**
 * Where a call's line carries the request's own api_secret for the line's redactor: a symbol, so
 * pino never writes it, and the line is walked once, with the configured secrets and this one.
 */
const LINE_SECRETS = Symbol('secrets of this line');

/** Lines redacted first, then bounded (src/ops/log-volume.ts): a clipped text never leaves part of a secret behind. */
const boundedLines = (redact: (line: Record<string, unknown>) => Record<string, unknown>) => (line: Record<string, unknown>) =>
  boundLogLine(redact(line));

export interface LoggerOptions {
  level: string;
  /** A file to append to (tests, or an operator's choice); unset: standard output. */
  file?: string | undefined;
  /** Human-readable output; default: when standard output is a terminal. */
  pretty?: boolean;
  /** The configured secrets (sandbox secret, tokens): redacted by value from every line, those learned later too. */
  secrets?: KnownSecrets;
  /** The cluster worker's number (WORKERS>1), on every line beside the pid. */
  worker?: number | undefined;
}

/** The gateway's logger, and how to end it. */
export interface LogOutput {
  logger: Logger;
  /** Writes out what is buffered; a LOG_FILE is also closed (standard output stays open for the process). */
  close(): Promise<void>;
}

/**
 * The longest a line waits in the output buffer before it is written: a log collector reading a
 * pipe sees every line within this, and a SIGKILL loses at most this much. Lines are still written
 * in batches (4 KiB, or whatever this interval gathered), asynchronously: a synchronous write per
 * line cost more CPU (10.1 µs per call line against 8.4 µs, `npm run bench:logs`), and, worse, a
 * synchronous write to a full pipe (a log reader falling behind) stops the whole process until the
 * reader catches up.
 */
export const LOG_FLUSH_INTERVAL_MS = 500;

/**
 * The secrets each line formatter of `loggerSettings` redacts, by the formatter: a call line
 * written without it (`callLogObserver`) is redacted with the same ones, those learned later too.
 * Child loggers keep their parent's formatter, and so its secrets.
 */
const FORMATTER_SECRETS = new WeakMap<object, KnownSecrets>();

/** The secrets `logger`'s lines are redacted with, when its settings are `loggerSettings`'. */
const secretsOf = (logger: Logger): KnownSecrets | undefined => {
  const formatters = (logger as unknown as Record<symbol, { log?: object }>)[pino.symbols.formattersSym];
  return formatters?.log && FORMATTER_SECRETS.get(formatters.log);
};

/** pino's settings for every destination: the level, what every line carries, redaction, the time. */
export function loggerSettings(options: Pick<LoggerOptions, 'level' | 'worker' | 'secrets'>): pino.LoggerOptions {
  const secrets = options.secrets ?? new KnownSecrets();
  const log = boundedLines(lineRedactor(secrets));
  FORMATTER_SECRETS.set(log, secrets);
  return {
    level: options.level,
    base: { service: 'v1gate', pid: process.pid, ...(options.worker === undefined ? {} : { worker: options.worker }) },
    formatters: { log },
    serializers: { err: errSerializer },
    // pino's isoTime, the second formatted once a second (src/ops/log-time.ts).
    timestamp: () => timeField(Date.now()),
  };
}

/** LOG_FORMAT as createLogger's `pretty`: auto leaves it to whether standard output is a terminal. */
export function prettyLogs(format: 'auto' | 'json' | 'pretty'): boolean | undefined {
  return format === 'auto' ? undefined : format === 'pretty';
}

export function createLogger(options: LoggerOptions): LogOutput {
  const settings = loggerSettings(options);
  if (options.file) {
    const file = logDestination({ dest: options.file, sync: true, mkdir: true });
    // A gateway stopped inside a longer-lived process (tests, an embedding) must not keep its file open.
    const closed = new Promise<void>((resolve) => file.once('close', () => resolve()));
    return {
      logger: pino(settings, file),
      close: () => {
        file.end();
        return closed;
      },
    };
  }
  // A person at a terminal gets readable lines (redacted all the same: the formatter runs before
  // the transport); a pipe or a log collector gets one JSON object per line.
  if (options.pretty ?? process.stdout.isTTY) {
    const logger = pino({ ...settings, transport: { target: 'pino-pretty', options: PRETTY_OPTIONS } });
    return { logger, close: async () => logger.flush() };
  }
  return promptStdout(settings);
}

/**
 * A terminal's lines: one per event, a call's fields after its message on the same line (pino-pretty
 * otherwise gives every field, and each v2 call, a line of its own: about 18 for one v1 call), and
 * without what every line repeats (the service name, pid and host).
 */
export const PRETTY_OPTIONS = {
  colorize: true,
  singleLine: true,
  ignore: 'service,pid,hostname',
  translateTime: 'SYS:HH:MM:ss.l',
} as const;

/** The most bytes a write to a pipe puts in whole, never interleaved with another process's write (Linux, POSIX's least). */
const PIPE_BUF = 4096;

/**
 * Standard output's destination as the gateway makes it (the log benches make the same): lines
 * gathered in 4 KiB writes, each written from the main thread where standard output never makes
 * it wait (src/ops/log-destination.ts, `stdoutWithoutWaiting`), else from libuv's thread pool.
 */
export function stdoutDestination(): ReturnType<typeof logDestination> {
  return logDestination({
    dest: 1,
    sync: false,
    batchBytes: PIPE_BUF,
    mainThreadFd: stdoutWithoutWaiting(),
    maxBufferedBytes: LOG_BACKLOG_BYTES,
  });
}

/**
 * The most bytes of lines standard output's destination holds while its reader does not read
 * (about 25 s of call lines at 2,500 calls/s): past it lines are dropped and counted
 * (`reportDroppedLines`), not kept. Without a bound a stalled log collector, with traffic going
 * on, grew the process until the kernel ended it.
 */
export const LOG_BACKLOG_BYTES = 32 * 1024 * 1024;

/**
 * Counts the lines `destination` drops (past its `maxBufferedBytes`) and gives back what tells
 * them: called on each flush interval, it writes one warning with the count since the last, as
 * soon as the destination takes a line again. A warning itself dropped leaves the count as it was.
 */
export function reportDroppedLines(destination: LogDestination, logger: pino.Logger): () => void {
  let dropped = 0;
  destination.on('drop', () => dropped++);
  return () => {
    if (dropped === 0) return;
    const lost = dropped;
    dropped = 0;
    logger.warn({ droppedLines: lost }, 'log lines dropped: standard output was not read');
    if (dropped > 0) dropped = lost;
  };
}

/**
 * Standard output as a pipe: whatever is gathered written every LOG_FLUSH_INTERVAL_MS, so no line
 * waits longer (pino writes out the rest when the process exits).
 */
function promptStdout(settings: pino.LoggerOptions): LogOutput {
  const destination = stdoutDestination();
  const logger = pino(settings, destination);
  // The destination's own flush, not the logger's: pino hands every flush a callback, for which
  // sonic-boom waits for the write and then asks the pool for an fsync, which a pipe refuses.
  const reportDrops = reportDroppedLines(destination, logger);
  const flusher = setInterval(() => {
    reportDrops();
    destination.flush();
  }, LOG_FLUSH_INTERVAL_MS).unref();
  return {
    logger,
    close: async () => {
      clearInterval(flusher);
      await new Promise<void>((resolve) => logger.flush(() => resolve()));
    },
  };
}

/**
 * The fields of a call's line, in the order they are written, for pino to write (a bug's line, or a
 * line the one pass cannot write exactly). Redacted where every line is (lineRedactor): by name, by
 * the configured secrets' values and by this request's (LINE_SECRETS). `callLineJson` writes the
 * same fields in the same order: src/ops/line-json.test.ts holds the two to one line.
 */
export function callLineFields(record: V1CallRecord): Record<string, unknown> {
  return {
    [LINE_SECRETS]: record.secrets,
    ...callLineTop(record),
    params: paramsOf(record),
    v2: v2CallsOf(record),
    kind: record.failure,
    err: record.fault,
  };
}

/**
 * The fields of `callLineFields` but `err` (a bug's line is pino's), written as JSON in one pass
 * (src/ops/line-json.ts): what `callLineText` (src/ops/call-line.ts) writes faster, and is held to.
 */
export function callLineJson(record: V1CallRecord, redactor: Redactor): string {
  return (
    topFields(redactor, callLineTop(record)) +
    topField(redactor, 'params', paramsOf(record)) +
    topField(redactor, 'v2', v2CallsOf(record)) +
    topField(redactor, 'kind', record.failure)
  );
}

/**
 * The facade observer that writes the call's one line: `v1 call` at info, or `v1 call failed` with
 * its failure's kind, at that kind's level (by who is to blame, its row in mappings/errors.ts), a
 * bug's with its stack (`err`).
 *
 * Every call writes one, so it is written in one pass (`callLineJson`: each value redacted and
 * bounded as it is written) and handed to the logger's destination in pino's frame
 * (src/ops/logging-frame.ts), not redacted, bounded and then stringified again by pino. A line
 * that pass cannot write exactly (a bug's error, a secret in a field name, a clipped name), or a
 * logger not made with `loggerSettings`, goes through pino as every other line does.
 */
export function callLogObserver(logger: Logger): CallObserver {
  const secrets = secretsOf(logger);
  const framed = secrets && framedWriter(logger);
  return (record: V1CallRecord) => {
    const level = record.errorCode === undefined ? 'info' : record.failure ? levelOf(record.failure) : LEVEL_OF_BLAME.upstream;
    const msg = record.errorCode === undefined ? 'v1 call' : 'v1 call failed';
    if (framed && record.fault === undefined) {
      if (!logger.isLevelEnabled(level)) return;
      const known = secrets.redactor(REDACTED);
      const json = onePass(callLineText, record, record.secrets ? known.with(record.secrets) : known);
      if (json !== undefined) return framed(level, json, msg);
    }
    logger[level](callLineFields(record), msg);
  };
}
