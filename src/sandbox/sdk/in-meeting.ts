import type { Instance, Meeting, Participant } from '../model/meeting.js';
import { endLiveInstance, leaveParticipant } from '../report/lifecycle.js';
import type { SandboxState } from '../state.js';
import { invalidParameter, notHost, SDK_CODES, SdkError } from './errors.js';
import { admit } from './join.js';
import { identityKey, liveInstanceOf, present, type Room, type SdkRegistry, type SdkSession } from './sessions.js';

/**
 * What a joined page sees when it polls, and what it may do in the meeting. Status is worked out
 * from the sandbox's state on every poll, so a meeting ended through the control API or v2's
 * status action ends the page's meeting too.
 */

export type SessionStatus = 'in' | 'waiting' | 'left' | 'removed' | 'ended';

export interface Attendee {
  userId: number;
  userName: string;
  isHost: boolean;
  muted: boolean;
}

export interface SessionView {
  status: SessionStatus;
  currentUser: Attendee | null;
  /** Index 0 is the current user (spec: getAttendeeslist). */
  attendees: Attendee[];
  /** Held and host-awaiting users, for the host (empty for everyone else). */
  waitingRoom: Array<{ userId: number | null; userName: string }>;
  meeting: {
    meetingNumber: number;
    meetingTopic: string;
    isWebinar: boolean;
    uuid: string | null;
    locked: boolean;
    recording: boolean;
  };
}

export function refresh(state: SandboxState, registry: SdkRegistry, session: SdkSession): SessionStatus {
  if (session.ended) return session.ended;
  const meeting = state.meetings.get(session.meetingId);
  if (!meeting) return (session.ended = 'ended');
  if (session.waiting === 'host') {
    // Started since (perhaps through the control API): in they come.
    if (meeting.live) admit(state, registry, meeting, session);
    else return 'waiting';
  }
  const live = liveInstanceOf(state, session);
  if (!live) return (session.ended = 'ended');
  if (session.waiting === 'hold') return 'waiting';
  const me = live.instance.participants.find((p) => p.user_id === session.participantUserId);
  // Left by other means (a control API call cannot do that today, but the row is the truth).
  if (!me || me.leave_time !== null) return (session.ended = 'left');
  return 'in';
}

export function view(state: SandboxState, registry: SdkRegistry, session: SdkSession): SessionView {
  const status = refresh(state, registry, session);
  const meeting = state.meetings.get(session.meetingId);
  const instance = status === 'in' || status === 'waiting' ? (meeting?.live ?? null) : null;
  const room = instance ? registry.room(instance) : null;
  const attendees = instance && room && status === 'in' ? present(instance).map((p) => attendee(room, p)) : [];
  const mine = attendees.findIndex((a) => String(a.userId) === session.participantUserId);
  if (mine > 0) attendees.unshift(...attendees.splice(mine, 1));
  const isHost = room !== null && session.participantUserId !== null && room.hostUserIds.has(session.participantUserId);
  return {
    status,
    currentUser: mine >= 0 ? attendees[0]! : null,
    attendees,
    waitingRoom: isHost && meeting ? waitingList(registry, meeting) : [],
    meeting: {
      meetingNumber: session.meetingId,
      meetingTopic: meeting?.topic ?? '',
      isWebinar: meeting?.kind === 'webinar',
      uuid: instance?.uuid ?? session.instanceUuid,
      locked: room?.locked ?? false,
      recording: room?.recording ?? false,
    },
  };
}

function attendee(room: Room, p: Participant): Attendee {
  return {
    userId: Number(p.user_id),
    userName: p.name,
    isHost: room.hostUserIds.has(p.user_id),
    muted: room.muted.get(p.user_id) ?? false,
  };
}

function waitingList(registry: SdkRegistry, meeting: Meeting): SessionView['waitingRoom'] {
  return registry
    .ofMeeting(meeting.id)
    .filter((s) => s.ended === null && s.waiting !== null)
    .map((s) => ({ userId: s.heldUserId === null ? null : Number(s.heldUserId), userName: s.name }));
}

/** The caller's meeting, for actions: only someone in it may act. */
interface Acting {
  meeting: Meeting;
  instance: Instance;
  room: Room;
  me: Participant;
  isHost: boolean;
}

function acting(state: SandboxState, registry: SdkRegistry, session: SdkSession): Acting {
  const status = refresh(state, registry, session);
  if (status === 'removed') throw new SdkError(SDK_CODES.removed, 'You have been removed from this meeting.', 409);
  if (status !== 'in') throw new SdkError(SDK_CODES.error, `Not in the meeting (${status}).`, 409);
  const { meeting, instance } = liveInstanceOf(state, session)!;
  const me = instance.participants.find((p) => p.user_id === session.participantUserId)!;
  const room = registry.room(instance);
  return { meeting, instance, room, me, isHost: room.hostUserIds.has(me.user_id) };
}

type Body = Record<string, unknown>;

function userIdOf(body: Body): string {
  const value = body['userId'];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)
    throw invalidParameter('userId', 'Expected a positive integer.');
  return String(value);
}

function flag(body: Body, name: string): boolean {
  const value = body[name];
  if (typeof value !== 'boolean') throw invalidParameter(name, 'Expected true or false.');
  return value;
}

/** Someone present in the instance, by the SDK's userId. */
function target(a: Acting, userId: string): Participant {
  const p = a.instance.participants.find((q) => q.user_id === userId && q.leave_time === null);
  if (!p) throw invalidParameter('userId', `No attendee ${userId} is in the meeting.`);
  return p;
}

function requireHost(a: Acting): void {
  if (!a.isHost) throw notHost();
}

/** Ends the live instance; the host's recording, if any, becomes its cloud recording. */
function endMeeting(state: SandboxState, a: Acting): void {
  endLiveInstance(state, a.meeting, a.room.recorded ? { recording: true } : {});
}

export type ActionResult = Record<string, unknown>;

type Action = (state: SandboxState, registry: SdkRegistry, session: SdkSession, body: Body) => ActionResult;

export const ACTIONS: Record<string, Action> = {
  mute(state, registry, session, body) {
    const a = acting(state, registry, session);
    const userId = userIdOf(body);
    const mute = flag(body, 'mute');
    target(a, userId);
    // Everyone may mute or unmute themselves; others need the host.
    if (userId !== a.me.user_id) requireHost(a);
    a.room.muted.set(userId, mute);
    return { userId: Number(userId), mute };
  },

  muteAll(state, registry, session, body) {
    const a = acting(state, registry, session);
    const muteAll = flag(body, 'muteAll');
    requireHost(a);
    for (const p of present(a.instance)) if (!a.room.hostUserIds.has(p.user_id)) a.room.muted.set(p.user_id, muteAll);
    return { muteAll };
  },

  rename(state, registry, session, body) {
    const a = acting(state, registry, session);
    const userId = userIdOf(body);
    const { oldName, newName } = body;
    if (typeof oldName !== 'string') throw invalidParameter('oldName', 'Expected a string.');
    if (typeof newName !== 'string' || newName.trim() === '' || newName.length > 64)
      throw invalidParameter('newName', 'Expected 1 to 64 characters.');
    const p = target(a, userId);
    if (userId !== a.me.user_id) requireHost(a);
    // The spec: userId and oldName must both be right.
    if (p.name !== oldName) throw invalidParameter('oldName', `Attendee ${userId} is not called ${JSON.stringify(oldName)}.`);
    p.name = newName.trim();
    return { userId: Number(userId), oldName, newName: p.name };
  },

  expel(state, registry, session, body) {
    const a = acting(state, registry, session);
    const userId = userIdOf(body);
    requireHost(a);
    const p = target(a, userId);
    if (userId === a.me.user_id) throw invalidParameter('userId', 'The host cannot remove themselves: leave or end instead.');
    leaveParticipant(state, p);
    const theirs = registry.ofParticipant(a.instance, userId);
    if (theirs) theirs.ended = 'removed';
    a.room.removed.add(identityKey(theirs?.name ?? p.name, theirs?.email ?? p.user_email));
    return { userId: Number(userId) };
  },

  putOnHold(state, registry, session, body) {
    const a = acting(state, registry, session);
    const userId = userIdOf(body);
    const hold = flag(body, 'hold');
    requireHost(a);
    if (hold) {
      const p = target(a, userId);
      const theirs = registry.ofParticipant(a.instance, userId);
      if (!theirs || a.room.hostUserIds.has(userId)) throw invalidParameter('userId', `Attendee ${userId} cannot be put on hold.`);
      // The waiting room is outside the meeting: the participant row ends, a new one starts on admission.
      leaveParticipant(state, p);
      theirs.waiting = 'hold';
      theirs.heldUserId = userId;
      theirs.participantUserId = null;
    } else {
      const held = registry.ofMeeting(a.meeting.id).find((s) => s.ended === null && s.waiting === 'hold' && s.heldUserId === userId);
      if (!held) throw invalidParameter('userId', `Nobody with userId ${userId} is on hold.`);
      admit(state, registry, a.meeting, held);
    }
    return { userId: Number(userId), hold };
  },

  record(state, registry, session, body) {
    const a = acting(state, registry, session);
    const record = flag(body, 'record');
    requireHost(a);
    a.room.recording = record;
    if (record) a.room.recorded = true;
    return { record };
  },

  lockMeeting(state, registry, session, body) {
    const a = acting(state, registry, session);
    const lockMeeting = flag(body, 'lockMeeting');
    requireHost(a);
    a.room.locked = lockMeeting;
    return { lockMeeting };
  },

  leave(state, registry, session) {
    const a = acting(state, registry, session);
    session.ended = 'left';
    // The spec: when the host leaves, the meeting ends.
    if (a.isHost) endMeeting(state, a);
    else leaveParticipant(state, a.me);
    return { ended: a.isHost };
  },

  end(state, registry, session) {
    const a = acting(state, registry, session);
    requireHost(a);
    session.ended = 'ended';
    endMeeting(state, a);
    return { uuid: a.instance.uuid };
  },
};

/** A waiting user who gives up: nothing was recorded for them, so nothing changes but the session. */
export function leaveWaiting(session: SdkSession): boolean {
  if (session.ended !== null || session.waiting === null) return false;
  session.ended = 'left';
  return true;
}
