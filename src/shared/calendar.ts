/** True when year-month-day names a day that exists (no 2013-02-30, no month 13). Month is 1-based. */
export function isCalendarDate(year: number, month: number, day: number): boolean {
  const check = new Date(Date.UTC(year, month - 1, day));
  return check.getUTCFullYear() === year && check.getUTCMonth() === month - 1 && check.getUTCDate() === day;
}
