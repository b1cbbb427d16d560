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
}

/**
 * Call `check` back to back for `ms` of real time and count admissions. The two spans bound the
 * time the store saw (a stall of this process between checks must not count against it).
 */
export async function flood(check: () => Promise<boolean>, ms: number): Promise<FloodResult> {
  const started = performance.now();
  let firstEnd = 0;
  let lastStart = 0;
  let lastEnd = 0;
  let admitted = 0;
  while (performance.now() - started < ms) {
    lastStart = performance.now();
    if (await check()) admitted++;
    lastEnd = performance.now();
    if (firstEnd === 0) firstEnd = lastEnd;
  }
  return { admitted, outerMs: lastEnd - started, innerMs: Math.max(0, lastStart - firstEnd) };
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
