import { isoSeconds } from '../clock.js';

/** Whole seconds from one service time (`2012-11-25T12:00:00Z`) to another. */
export function secondsBetween(fromIso: string, toIso: string): number {
  return Math.max(0, Math.round((Date.parse(toIso) - Date.parse(fromIso)) / 1000));
}

/** Minutes as the service counts them in reports: every started minute counts. */
export function minutesOf(seconds: number): number {
  return Math.ceil(seconds / 60);
}

/** `iso` moved by `minutes` (negative to go back), printed the service's way. */
export function plusMinutes(iso: string, minutes: number): string {
  return isoSeconds(new Date(Date.parse(iso) + minutes * 60_000));
}

/** A dashboard duration: `HH:MM:SS`, the way the metrics endpoints print elapsed time. */
export function clockDuration(seconds: number): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor((seconds % 3600) / 60))}:${pad(seconds % 60)}`;
}

/** The UTC calendar date of a service time: `2012-11-25`. */
export function dateOf(iso: string): string {
  return iso.slice(0, 10);
}
