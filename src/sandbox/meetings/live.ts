import type { Meeting } from '../model/meeting.js';

/**
 * Ending a session: its live instance (set by the control API when a session starts) gets its
 * end time, anyone still in it leaves then, and the session is no longer live. A session that is
 * not live has nothing to end; the service answers that request with success all the same.
 */
export function endLiveInstance(meeting: Meeting, nowIso: string): void {
  const instance = meeting.live;
  if (!instance) return;
  const endMs = Date.parse(nowIso);
  for (const participant of instance.participants) {
    if (participant.leave_time !== null) continue;
    participant.leave_time = nowIso;
    // Each participant record is one stay (a rejoin is a record of its own), so its length is this stay's.
    participant.duration = Math.max(0, Math.round((endMs - Date.parse(participant.join_time)) / 1000));
  }
  instance.end_time = nowIso;
  meeting.live = null;
}
