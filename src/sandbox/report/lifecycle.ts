import { conflict } from '../errors.js';
import { meetingUuid, opaqueId } from '../ids.js';
import type { Instance, Meeting, Participant, PollAnswer, QuestionAnswer } from '../model/meeting.js';
import type { SandboxState } from '../state.js';
import { displayName } from './people.js';
import { recordingFilesFor, type RecordingRequest } from './recording-files.js';
import { secondsBetween } from './time.js';

/**
 * How a meeting or webinar happens: an instance starts (the host joins first), participants join,
 * polls and Q&A are answered, and the instance ends (everyone still in leaves, the cloud recording
 * is made). These are the only writers of `Meeting.instances`, `Meeting.live` and
 * `state.instancesByUuid`, so the three stay in step. The control API drives them; the meetings
 * area's "end" status action calls `endLiveInstance`.
 */

/** Conflicts of the lifecycle carry the HTTP status as their code: the v2 spec names no code for them. */
const CONFLICT_CODE = 409;

export const kindLabel = (meeting: Meeting) => (meeting.kind === 'webinar' ? 'Webinar' : 'Meeting');

export const alreadyLive = (meeting: Meeting) =>
  conflict(CONFLICT_CODE, `${kindLabel(meeting)} ${meeting.id} is already in progress: end it first.`);

export const notLive = (meeting: Meeting) =>
  conflict(CONFLICT_CODE, `${kindLabel(meeting)} ${meeting.id} is not in progress: start it first.`);

export const neverHappened = (meeting: Meeting) =>
  conflict(CONFLICT_CODE, `${kindLabel(meeting)} ${meeting.id} has never started: start it first.`);

/** Start a live instance at `startTime` (now by default); the host joins as its first participant. */
export function startInstance(state: SandboxState, meeting: Meeting, startTime: string = state.nowIso()): Instance {
  if (meeting.live) throw alreadyLive(meeting);
  const instance: Instance = {
    uuid: freshInstanceUuid(state),
    start_time: startTime,
    end_time: null,
    participants: [],
    recording_files: [],
    polls: [],
    questions: [],
  };
  meeting.instances.push(instance);
  meeting.live = instance;
  state.instancesByUuid.set(instance.uuid, { meeting, instance });
  const host = state.users.get(meeting.host_id);
  joinParticipant(state, meeting, instance, { name: host ? displayName(host) : 'Host', email: host?.email, joinTime: startTime });
  state.events.emit(meeting, instance, 'started');
  return instance;
}

export interface JoinInput {
  name: string;
  email?: string | undefined;
  joinTime: string;
  /** Set when the participant already left (a meeting that happened in the past). */
  leaveTime?: string | undefined;
}

/** The first participant number of an instance; the service numbers joiners in steps of 1024. */
const FIRST_PARTICIPANT_NUMBER = 16_778_240;

/** Add a participant to `instance`. A signed-in user keeps their user id; a webinar registrant is linked by email. */
export function joinParticipant(state: SandboxState, meeting: Meeting, instance: Instance, input: JoinInput): Participant {
  const email = input.email ?? '';
  const user = email ? state.usersByEmail.get(email.toLowerCase()) : undefined;
  const participant: Participant = {
    id: user?.id ?? opaqueId(),
    user_id: String(FIRST_PARTICIPANT_NUMBER + instance.participants.length * 1024),
    name: input.name,
    user_email: email,
    join_time: input.joinTime,
    leave_time: input.leaveTime ?? null,
    duration: input.leaveTime ? secondsBetween(input.joinTime, input.leaveTime) : 0,
    registrant_id: registrantIdOf(meeting, email),
  };
  instance.participants.push(participant);
  return participant;
}

/**
 * A participant leaves the live instance now (left, removed by the host, or moved to the waiting
 * room): the same leave_time and duration the end of the instance would give them. Leaving twice
 * changes nothing.
 */
export function leaveParticipant(state: SandboxState, participant: Participant, leaveTime: string = state.nowIso()): void {
  if (participant.leave_time !== null) return;
  participant.leave_time = leaveTime;
  participant.duration = secondsBetween(participant.join_time, leaveTime);
}

/** Only an approved registrant gets in, so only an approved one is linked. */
function registrantIdOf(meeting: Meeting, email: string): string {
  if (!email) return '';
  const lower = email.toLowerCase();
  return meeting.registrants.find((r) => r.status === 'approved' && r.email.toLowerCase() === lower)?.id ?? '';
}

export interface EndOptions {
  /** When the instance ends; now by default. */
  endTime?: string;
  /** The cloud recording to make; by default one when the meeting's `auto_recording` setting is `cloud`. */
  recording?: RecordingRequest;
}

/**
 * End the live instance of `meeting`: it gets its `end_time`, everyone still in leaves then, and
 * the cloud recording is made. Returns the ended instance, or null when nothing was live (the
 * caller decides whether that is an error).
 */
export function endLiveInstance(state: SandboxState, meeting: Meeting, options: EndOptions = {}): Instance | null {
  const instance = meeting.live;
  if (!instance) return null;
  const endTime = options.endTime ?? state.nowIso();
  for (const participant of instance.participants) {
    if (participant.leave_time !== null) continue;
    participant.leave_time = endTime;
    participant.duration = secondsBetween(participant.join_time, endTime);
  }
  instance.end_time = endTime;
  meeting.live = null;
  const recording = options.recording ?? meeting.settings['auto_recording'] === 'cloud';
  instance.recording_files = recordingFilesFor(meeting, instance, recording);
  state.events.emit(meeting, instance, 'ended');
  if (instance.recording_files.length > 0) state.events.emit(meeting, instance, 'recording.completed');
  return instance;
}

/**
 * An attendee arrives before the host has started: with join-before-host allowed they are in
 * (`participant_jbh_joined`), else they wait for the host (`participant_jbh_waiting`).
 */
export function attendeeBeforeHost(state: SandboxState, meeting: Meeting): 'joined' | 'waiting' {
  if (meeting.live) throw alreadyLive(meeting);
  const joined = meeting.settings['join_before_host'] === true;
  state.events.emit(meeting, null, joined ? 'participant_jbh_joined' : 'participant_jbh_waiting');
  return joined ? 'joined' : 'waiting';
}

/** The instance poll answers and Q&A go to: the live one, else the latest that ended. */
export function currentOrLatestInstance(meeting: Meeting): Instance {
  const instance = meeting.live ?? meeting.instances.at(-1);
  if (!instance) throw neverHappened(meeting);
  return instance;
}

export function recordPollAnswer(instance: Instance, answer: PollAnswer): void {
  instance.polls.push(answer);
}

export function recordQuestion(instance: Instance, entry: QuestionAnswer): void {
  instance.questions.push(entry);
}

function freshInstanceUuid(state: SandboxState): string {
  let uuid = meetingUuid();
  while (state.instancesByUuid.has(uuid)) uuid = meetingUuid();
  return uuid;
}
