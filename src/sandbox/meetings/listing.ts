import type { Meeting } from '../model/meeting.js';
import type { KindSpec, MeetingListType } from './kinds.js';

/**
 * The `type` filter of GET /users/{userId}/meetings:
 * - `live`: sessions in progress (the control API sets `live` when one starts);
 * - `scheduled`: every scheduled session (all types but instant meetings);
 * - `upcoming`: sessions still to come, soonest first: a start in the future, or a fixed-time
 *   series with an available occurrence in the future. A series with no fixed time has no start
 *   to come and is not listed.
 */
export function filterSessions(sessions: Meeting[], type: MeetingListType, spec: KindSpec, nowMs: number): Meeting[] {
  switch (type) {
    case 'live':
      return sessions.filter((m) => m.live !== null);
    case 'scheduled':
      return sessions.filter((m) => m.type !== spec.instantType);
    case 'upcoming':
      return sessions
        .map((m) => ({ m, next: nextStart(m, spec, nowMs) }))
        .filter((e): e is { m: Meeting; next: number } => e.next !== null)
        .sort((a, b) => a.next - b.next)
        .map((e) => e.m);
  }
}

/** The next start after `nowMs`, or null when the session has none to come. */
function nextStart(meeting: Meeting, spec: KindSpec, nowMs: number): number | null {
  if (meeting.type === spec.fixedTimeRecurringType) {
    const next = meeting.occurrences.find((o) => o.status === 'available' && Date.parse(o.start_time) > nowMs);
    return next ? Date.parse(next.start_time) : null;
  }
  if (!meeting.start_time || meeting.type === spec.instantType) return null;
  const start = Date.parse(meeting.start_time);
  return start > nowMs ? start : null;
}
