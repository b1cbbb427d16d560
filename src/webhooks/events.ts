/**
 * Which v2 event becomes which v1 notification status. A table, not branches: adding an event is
 * one line. Meetings and webinars share v1's statuses (v1 told them apart only by their number).
 */
export type V1Status = 'STARTED' | 'ENDED' | 'JBH' | 'JOIN' | 'RECORDING_MEETING_COMPLETED';

export const V2_EVENT_TO_V1_STATUS: Readonly<Record<string, V1Status>> = {
  'meeting.started': 'STARTED',
  'meeting.ended': 'ENDED',
  'meeting.participant_jbh_joined': 'JBH',
  'meeting.participant_jbh_waiting': 'JOIN',
  'recording.completed': 'RECORDING_MEETING_COMPLETED',
  'webinar.started': 'STARTED',
  'webinar.ended': 'ENDED',
  'webinar.participant_jbh_joined': 'JBH',
  'webinar.participant_jbh_waiting': 'JOIN',
};

export function v1StatusFor(event: string): V1Status | undefined {
  return Object.hasOwn(V2_EVENT_TO_V1_STATUS, event) ? V2_EVENT_TO_V1_STATUS[event] : undefined;
}
