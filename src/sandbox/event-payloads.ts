import { randomBytes } from 'node:crypto';
import type { Instance, Meeting } from './model/meeting.js';

/**
 * The bodies of the events the sandbox sends, shaped as the service's own Node SDK types them
 * (zoom/rivet-javascript, meetings.d.ts: MeetingStartedEvent, MeetingEndedEvent,
 * MeetingParticipantJbhJoinedEvent, RecordingCompletedEvent; docs/live-evidence.md, "Push events
 * today"): a meeting's and a webinar's events carry `object.id` as a string with `timezone` and
 * `duration` (and `end_time` once ended), the join-before-host ones a `participant`, and
 * `recording.completed` a numeric id, its files and a `download_token` beside the payload.
 */

export type LifecycleEvent = 'started' | 'ended' | 'participant_jbh_joined' | 'participant_jbh_waiting' | 'recording.completed';

/** Who an event is about, when it is about someone (the join-before-host events). */
export interface EventParticipant {
  user_name?: string;
  id?: string;
}

/** The event's name and its JSON body, with `event_ts` now. */
export function eventBody(
  meeting: Meeting,
  instance: Instance | null,
  what: LifecycleEvent,
  nowMs: number,
  who?: EventParticipant,
): string {
  const event = what === 'recording.completed' ? what : `${meeting.kind}.${what}`;
  const object =
    what === 'recording.completed' && instance ? recordingObject(meeting, instance) : sessionObject(meeting, instance, what, who);
  const body: Record<string, unknown> = { event, event_ts: nowMs, payload: { account_id: meeting.account_id, object } };
  // A short-lived token for the files' download_url, beside the payload (RecordingCompletedEvent).
  if (what === 'recording.completed') body['download_token'] = randomBytes(24).toString('base64url');
  return JSON.stringify(body);
}

function sessionObject(meeting: Meeting, instance: Instance | null, what: LifecycleEvent, who?: EventParticipant): Record<string, unknown> {
  const object: Record<string, unknown> = {
    id: String(meeting.id),
    uuid: instance?.uuid ?? meeting.uuid,
    host_id: meeting.host_id,
    topic: meeting.topic,
    type: meeting.type,
    start_time: instance?.start_time ?? meeting.start_time,
    timezone: meeting.timezone,
    duration: meeting.duration,
  };
  if (what === 'ended' && instance?.end_time) object['end_time'] = instance.end_time;
  if (what === 'participant_jbh_joined' || what === 'participant_jbh_waiting') object['participant'] = who ?? {};
  return object;
}

function recordingObject(meeting: Meeting, instance: Instance): Record<string, unknown> {
  return {
    id: meeting.id,
    uuid: instance.uuid,
    host_id: meeting.host_id,
    account_id: meeting.account_id,
    topic: meeting.topic,
    type: meeting.type,
    start_time: instance.start_time,
    timezone: meeting.timezone,
    duration: meeting.duration,
    total_size: instance.recording_files.reduce((sum, file) => sum + file.file_size, 0),
    recording_count: instance.recording_files.length,
    recording_files: instance.recording_files.map((file) => ({ ...file, file_extension: file.file_type })),
  };
}
