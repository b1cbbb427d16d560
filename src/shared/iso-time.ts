/**
 * Times as both API versions print them: ISO 8601 in UTC without milliseconds,
 * `2012-11-25T12:00:00Z`. Shared by the gateway (v1 action times) and the sandbox (v2 times).
 */
export function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The first moment whose ISO 8601 form is no longer `YYYY-MM-DDTHH:mm:ss.sssZ` (the year 10000). */
const LAST_FOUR_DIGIT_YEAR = Date.UTC(10_000, 0, 1);
let second = NaN;
let secondPrefix = '';

/**
 * `new Date(ms).toISOString()` for a whole number of milliseconds, with what precedes the
 * milliseconds made once a second: every log line is stamped with this, and formatting a Date
 * each time cost about 1% of a v1 call's CPU (`npm run bench:profile`).
 */
export function isoMillis(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms >= LAST_FOUR_DIGIT_YEAR) return new Date(ms).toISOString();
  const milli = ms % 1000;
  const at = ms - milli;
  if (at !== second) {
    second = at;
    secondPrefix = new Date(at).toISOString().slice(0, 20);
  }
  return `${secondPrefix}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}
