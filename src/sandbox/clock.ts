/** The sandbox's notion of "now", injectable so tests can make time pass. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export { isoSeconds } from '../shared/iso-time.js';
