import type { Instance, Meeting, Participant, PollAnswer, QuestionAnswer } from '../model/meeting.js';
import type { SandboxState } from '../state.js';
import { displayName, USER_TYPE_LABEL } from './people.js';
import { clockDuration, minutesOf, secondsBetween } from './time.js';

/** Answers of the post-meeting endpoints, built from an instance and its meeting. Field names are the v2 ones. */

/** An instance's length in seconds: a live one's so far, up to `nowIso`. */
const instanceSeconds = (instance: Instance, nowIso: string) => secondsBetween(instance.start_time, instance.end_time ?? nowIso);

/** An ended instance's length in minutes. */
const endedMinutes = (instance: Instance) => minutesOf(secondsBetween(instance.start_time, instance.end_time ?? instance.start_time));

function hostOf(state: SandboxState, meeting: Meeting) {
  const host = state.users.get(meeting.host_id);
  return { name: host ? displayName(host) : '', email: host?.email ?? '', type: host?.type };
}

/** GET /past_meetings/{meetingUUID}. */
export function renderPastMeeting(state: SandboxState, meeting: Meeting, instance: Instance) {
  const host = hostOf(state, meeting);
  const participantSeconds = instance.participants.reduce((sum, p) => sum + p.duration, 0);
  return {
    uuid: instance.uuid,
    id: meeting.id,
    // Both documents type host_id as an integer, but host ids are the users' string ids everywhere else.
    host_id: meeting.host_id,
    type: meeting.type,
    topic: meeting.topic,
    user_name: host.name,
    user_email: host.email,
    start_time: instance.start_time,
    end_time: instance.end_time,
    duration: endedMinutes(instance),
    total_minutes: minutesOf(participantSeconds),
    participants_count: instance.participants.length,
  };
}

/** An item of GET /past_meetings/{meetingUUID}/participants. */
export const renderPastParticipant = (p: Participant) => ({ id: p.id, name: p.name });

/**
 * An item of GET /report/{meetings|webinars}/{id}/participants. The reference types the empty
 * attentiveness score differently for meetings (integer) and webinars (string). `registrant_id`
 * is beyond the reference: it is how a webinar attendee is tied to their registration.
 */
export function renderReportParticipant(meeting: Meeting, p: Participant) {
  return {
    id: p.id,
    user_id: p.user_id,
    name: p.name,
    user_email: p.user_email,
    join_time: p.join_time,
    leave_time: p.leave_time,
    duration: p.duration,
    attentiveness_score: meeting.kind === 'webinar' ? '' : 0,
    registrant_id: p.registrant_id,
  };
}

/** GET /report/webinars/{id}/polls and /qa: one shape for poll answers and Q&A. */
export function renderSurvey(meeting: Meeting, instance: Instance, entries: readonly (PollAnswer | QuestionAnswer)[]) {
  return {
    id: meeting.id,
    uuid: instance.uuid,
    start_time: instance.start_time,
    questions: entries.map((e) => ({ name: e.name, email: e.email, question_details: e.question_details.map((d) => ({ ...d })) })),
  };
}

/** An item of GET /past_meetings/{id}/instances and /past_webinars/{id}/instances. */
export const renderInstanceRef = (instance: Instance) => ({ uuid: instance.uuid, start_time: instance.start_time });

/**
 * An item of GET /metrics/meetings (`MeetingMetric`) or /metrics/webinars (`WebinarMetric`, the
 * same fields): live instances count who is in now, past ones everyone who came.
 */
export function renderSessionMetric(state: SandboxState, meeting: Meeting, instance: Instance) {
  const host = hostOf(state, meeting);
  const live = instance.end_time === null;
  const participants = live ? instance.participants.filter((p) => p.leave_time === null).length : instance.participants.length;
  const settings = meeting.settings;
  return {
    uuid: instance.uuid,
    id: meeting.id,
    topic: meeting.topic,
    host: host.name,
    email: host.email,
    user_type: host.type ? USER_TYPE_LABEL[host.type] : '',
    start_time: instance.start_time,
    ...(live ? {} : { end_time: instance.end_time }),
    duration: clockDuration(instanceSeconds(instance, state.nowIso())),
    participants,
    // Sandbox participants join by computer audio: nobody dials in, shares a screen or uses SIP.
    has_pstn: false,
    has_voip: participants > 0,
    has_3rd_party_audio: false,
    // Meetings name the attendees' video `participant_video`, webinars `panelists_video`.
    has_video: settings['host_video'] === true || settings['participant_video'] === true || settings['panelists_video'] === true,
    has_screen_share: false,
    has_recording: live ? (settings['auto_recording'] ?? 'none') !== 'none' : instance.recording_files.length > 0,
    has_sip: false,
  };
}

/**
 * An item of GET /users/{userId}/recordings (`RecordingMeeting`); the reference types the counts as
 * strings. Each file's `download_url` is at `origin`, where the request came: the sandbox serves
 * the bytes there (`/rec/download/...`), wherever it listens.
 */
export function renderRecordingMeeting(meeting: Meeting, instance: Instance, origin: string) {
  const totalSize = instance.recording_files.reduce((sum, f) => sum + f.file_size, 0);
  return {
    uuid: instance.uuid,
    id: meeting.id,
    account_id: meeting.account_id,
    host_id: meeting.host_id,
    topic: meeting.topic,
    start_time: instance.start_time,
    duration: endedMinutes(instance),
    total_size: String(totalSize),
    recording_count: String(instance.recording_files.length),
    recording_files: instance.recording_files.map((f) => ({ ...f, download_url: servedAt(f.download_url, origin) })),
  };
}

/** `url` with its origin replaced by `origin`. */
function servedAt(url: string, origin: string): string {
  const { pathname } = new URL(url);
  return `${origin}${pathname}`;
}
