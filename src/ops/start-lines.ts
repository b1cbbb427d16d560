import pino, { type Logger } from 'pino';
import { loggerSettings } from './logging.js';

/**
 * What the process itself says around the logger's life: the start banner, the start's warnings
 * (written before any logger exists), the stop line and the reason a start fails. As text, they
 * are for the person at the terminal, as ever. With LOG_FORMAT=json they are log lines of the very
 * shape the logger writes (its settings: `level`, `time`, `service`, `pid`, `msg`, redaction and
 * bounds), so a collector reading the process's output parses every line of it. Written
 * synchronously: the stop line is followed by the exit, and a failed start's reason must not be
 * lost with it.
 */
export interface StartLines {
  /** Whether the lines are JSON (LOG_FORMAT=json). */
  readonly json: boolean;
  /** A banner or stop line, on standard output; `fields` go beside the message in JSON. */
  say(text: string, fields?: Record<string, unknown>): void;
  /** A warning, on standard error. */
  warn(text: string, fields?: Record<string, unknown>): void;
  /** A failed start's reason, on standard error. */
  fail(text: string): void;
}

/** LOG_FORMAT as the environment says it: read apart from the configuration, which may be what failed. */
export function startLinesAreJson(env: NodeJS.ProcessEnv): boolean {
  return env.LOG_FORMAT?.trim().toLowerCase() === 'json';
}

export function startLines(json: boolean): StartLines {
  if (!json) {
    return {
      json,
      say: (text) => process.stdout.write(`${text}\n`),
      warn: (text) => process.stderr.write(`${text}\n`),
      fail: (text) => process.stderr.write(`${text}\n`),
    };
  }
  const settings = loggerSettings({ level: 'info' });
  const out: Logger = pino(settings, pino.destination({ fd: 1, sync: true }));
  const err: Logger = pino(settings, pino.destination({ fd: 2, sync: true }));
  return {
    json,
    say: (text, fields = {}) => out.info({ source: 'start', ...fields }, text.trim()),
    warn: (text, fields = {}) => err.warn({ source: 'start', ...fields }, text.trim()),
    fail: (text) => err.error({ source: 'start' }, text.trim()),
  };
}
