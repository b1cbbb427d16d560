import type { Meeting } from '../model/meeting.js';
import type { KindSpec, MeetingListType } from './kinds.js';

/**
 * The `type` filter of GET /users/{userId}/meetings:
 * - `live`: sessions in progress (the control API sets `live` when one starts);
 * - `scheduled`: every scheduled session (all types but instant meetings);
 * - `upcoming` (and its newer name `upcoming_meetings`): sessions still to come, soonest first: a
 *   start in the future, or a fixed-time series with an available occurrence in the future. A
 *   series with no fixed time has no start to come and is not listed;
 * - `previous_meetings`: sessions whose scheduled end has passed (a series: its last occurrence's).
 * Without `type`, today's documents (and the service) list `scheduled`.
 */
export function filterSessions(sessions: Meeting[], type: MeetingListType, spec: KindSpec, nowMs: number): Meeting[] {
  switch (type) {
    case 'live':
      return sessions.filter((m) => m.live !== null);
    case 'scheduled':
      return sessions.filter((m) => m.type !== spec.instantType);
    case 'previous_meetings':
      return sessions.filter((m) => endedBy(m, spec, nowMs));
    case 'upcoming':
    case 'upcoming_meetings':
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

/** Whether the session's scheduled end (its last occurrence's, for a fixed-time series) is past. */
function endedBy(meeting: Meeting, spec: KindSpec, nowMs: number): boolean {
  const last = meeting.type === spec.fixedTimeRecurringType ? meeting.occurrences.at(-1) : meeting;
  if (!last?.start_time || meeting.type === spec.instantType) return false;
  return Date.parse(last.start_time) + last.duration * 60_000 <= nowMs;
}
