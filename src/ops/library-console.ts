import { format } from 'node:util';
import type { Logger } from 'pino';

/**
 * Libraries that write to the console themselves, past the gateway's logger: ioredis warns with a
 * bare `console.warn("[WARN] ...")` (a password given to a Redis that asks none, a failed ready
 * check) and has no setting to route or silence it, so a raw line landed among the JSON lines a
 * collector parses. From the moment a process's logger exists, `console.warn` and `console.error`
 * write through it instead: one JSON line each (a readable one on a terminal), at warn and error,
 * marked `source: "console"`. `console.log` (the banner, the stop line) stays the command line's.
 * Returns the undo, for a process that hands the console back.
 */
export function routeConsoleThrough(logger: Logger): () => void {
  const original = { warn: console.warn, error: console.error };
  console.warn = (...args: unknown[]) => logger.warn({ source: 'console' }, format(...args));
  console.error = (...args: unknown[]) => logger.error({ source: 'console' }, format(...args));
  return () => Object.assign(console, original);
}
