import type { Redis } from 'ioredis';
import { connectRedis } from '../../src/ratelimit/redis-store.js';

/** A rate-limit Redis connection (as the gateway makes it), once it is ready for commands. */
export async function readyRedis(url: string, commandTimeoutMs = 200): Promise<Redis> {
  const redis = connectRedis(url, { commandTimeoutMs });
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
  return redis;
}

/** Poll until `condition` holds (for reconnects), failing after `timeoutMs`. */
export async function eventually(condition: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface FloodResult {
  admitted: number;
  /** From the first check's start to the last check's end: the most time the buckets had to refill. */
  outerMs: number;
  /** From the first check's end to the last check's start: the least. */
  innerMs: number;
  /**
   * The same marks on the wall clock (epoch ms, sub-millisecond), so floods in several processes can
   * be put on one time line (spansOf) however late each one started.
   */
  at: { started: number; firstEnd: number; lastStart: number; lastEnd: number };
}

/** Now on the wall clock, sub-millisecond: comparable between processes of one machine. */
const wallNow = () => performance.timeOrigin + performance.now();

/**
 * Call `check` back to back for `ms` of real time, and at least `minChecks` times, and count
 * admissions. The spans bound the time the store saw (a stall of this process between checks must
 * not count against it); the floor on checks keeps a process the machine stalls for most of the
 * window in the flood all the same.
 */
export async function flood(check: () => Promise<boolean>, ms: number, minChecks = 0): Promise<FloodResult> {
  const started = wallNow();
  let firstEnd = 0;
  let lastStart = 0;
  let lastEnd = 0;
  let admitted = 0;
  let checks = 0;
  while (wallNow() - started < ms || checks < minChecks) {
    lastStart = wallNow();
    if (await check()) admitted++;
    checks++;
    lastEnd = wallNow();
    if (firstEnd === 0) firstEnd = lastEnd;
  }
  return {
    admitted,
    outerMs: lastEnd - started,
    innerMs: Math.max(0, lastStart - firstEnd),
    at: { started, firstEnd, lastStart, lastEnd },
  };
}

/**
 * Floods of one bucket from several processes, as one flood: the most time it had to refill runs
 * from the first start to the last end, the least is the time every process was flooding (from the
 * last first answer to the first last check).
 */
export function spansOf(results: readonly FloodResult[]): FloodResult {
  const started = Math.min(...results.map((r) => r.at.started));
  const firstEnd = Math.max(...results.map((r) => r.at.firstEnd));
  const lastStart = Math.min(...results.map((r) => r.at.lastStart));
  const lastEnd = Math.max(...results.map((r) => r.at.lastEnd));
  return {
    admitted: results.reduce((n, r) => n + r.admitted, 0),
    outerMs: lastEnd - started,
    innerMs: Math.max(0, lastStart - firstEnd),
    at: { started, firstEnd, lastStart, lastEnd },
  };
}

/** What a token bucket (burst, rate) may admit to a flood: between these, give or take one token. */
export function admissible(burst: number, ratePerSecond: number, result: FloodResult): { min: number; max: number } {
  return {
    min: Math.floor(burst + (ratePerSecond * result.innerMs) / 1000) - 1,
    max: Math.ceil(burst + (ratePerSecond * result.outerMs) / 1000) + 1,
  };
}

/** Assert-friendly: is `n` within the admissible range? */
export function within(n: number, range: { min: number; max: number }): boolean {
  return n >= range.min && n <= range.max;
}
