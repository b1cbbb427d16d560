/** Whole seconds for a `Retry-After` header: at least 1, since 0 would invite an immediate retry. */
export function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/**
 * A `Retry-After` header (seconds, or an HTTP date) as milliseconds from now; undefined when it
 * is absent or not one of the two forms. One reading for the v2 client and the rate limiter: a
 * negative or garbled value never becomes a pause.
 */
export function parseRetryAfter(value: string | readonly string[] | null | undefined, nowMs = Date.now()): number | undefined {
  const text = typeof value === 'string' ? value : value?.[0];
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}
