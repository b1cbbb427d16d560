import { isoMillis } from '../shared/iso-time.js';

/**
 * pino's `,"time":"<ISO 8601>"` of a log line, as `isoMillis` writes the time, in two pieces: the
 * field's start to the second, made once a second, and the milliseconds with the field's end, made
 * once for the process. Every line is stamped, and a stamp built from five pieces left five strings
 * for V8 to collect on every call.
 */
const MILLIS_ENDS = Array.from({ length: 1_000 }, (_, milli) => `${String(milli).padStart(3, '0')}Z"`);

let second = NaN;
let secondStart = '';

/** The first moment isoMillis no longer writes as `YYYY-MM-DDTHH:mm:ss.sssZ` (the year 10000). */
const LAST_FOUR_DIGIT_YEAR = Date.UTC(10_000, 0, 1);

/** The line's time field for `ms` (a time as Date.now gives it): `,"time":"` and isoMillis's text of it. */
export function timeField(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms >= LAST_FOUR_DIGIT_YEAR) return `,"time":"${isoMillis(ms)}"`;
  const milli = ms % 1_000;
  const at = ms - milli;
  if (at !== second) {
    second = at;
    secondStart = `,"time":"${isoMillis(at).slice(0, 20)}`;
  }
  return secondStart + MILLIS_ENDS[milli]!;
}
