/** The sandbox's notion of "now", injectable so tests can make time pass. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** ISO 8601 in UTC without milliseconds, the way the service prints times: `2012-11-25T12:00:00Z`. */
export function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
