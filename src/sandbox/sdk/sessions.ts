import { randomBytes } from 'node:crypto';
import type { Instance, Meeting, Participant } from '../model/meeting.js';
import type { SandboxState } from '../state.js';

/**
 * What the offline SDK remembers beyond the sandbox's own meeting state: who is on which page (a
 * session per successful join), and the in-meeting facts v2 has no field for (mute, lock, who
 * was removed, whether the host recorded). Everything v2 and the control API can see (instances,
 * participants, join and leave times) stays in `SandboxState`, written through the lifecycle.
 */

export type WaitingFor = 'host' | 'hold';
export type SessionEnd = 'left' | 'removed' | 'ended';

export interface SdkSession {
  id: string;
  meetingId: number;
  /** The name and email the user joined with (a removed user is known again by them). */
  name: string;
  email: string;
  role: 0 | 1;
  /** The instance and participant (its `user_id`) while in the meeting. */
  instanceUuid: string | null;
  participantUserId: string | null;
  /** Not in yet: waiting for the host to start, or put on hold by the host. */
  waiting: WaitingFor | null;
  /** The participant number a held user had, so the host can admit them by it. */
  heldUserId: string | null;
  ended: SessionEnd | null;
}

/** In-meeting state of one live instance. */
export interface Room {
  hostUserIds: Set<string>;
  muted: Map<string, boolean>;
  locked: boolean;
  /** Set once the host starts a recording: the instance then ends with a cloud recording. */
  recorded: boolean;
  recording: boolean;
  /** `name\nemail` of everyone removed: they may not come back to this instance (3009). */
  removed: Set<string>;
}

export const identityKey = (name: string, email: string) => `${name.toLowerCase()}\n${email.toLowerCase()}`;

export class SdkRegistry {
  private readonly sessions = new Map<string, SdkSession>();
  private readonly rooms = new Map<string, Room>();

  constructor(readonly state: SandboxState) {}

  /** A session as it begins: never held nor ended yet, and outside the meeting unless the join says where it is. */
  add(
    join: Pick<SdkSession, 'meetingId' | 'name' | 'email' | 'role'> &
      Partial<Pick<SdkSession, 'instanceUuid' | 'participantUserId' | 'waiting'>>,
  ): SdkSession {
    const full: SdkSession = {
      instanceUuid: null,
      participantUserId: null,
      waiting: null,
      heldUserId: null,
      ended: null,
      ...join,
      id: randomBytes(18).toString('base64url'),
    };
    this.sessions.set(full.id, full);
    return full;
  }

  get(id: string): SdkSession | undefined {
    return this.sessions.get(id);
  }

  /** The room of an instance, made on first use (an instance the control API started has one too). */
  room(instance: Instance): Room {
    let room = this.rooms.get(instance.uuid);
    if (!room) {
      const host = instance.participants[0];
      room = {
        hostUserIds: new Set(host ? [host.user_id] : []),
        muted: new Map(),
        locked: false,
        recorded: false,
        recording: false,
        removed: new Set(),
      };
      this.rooms.set(instance.uuid, room);
    }
    return room;
  }

  /** Sessions of a meeting, for the host's waiting list and for moving people about. */
  ofMeeting(meetingId: number): SdkSession[] {
    return [...this.sessions.values()].filter((s) => s.meetingId === meetingId);
  }

  /** The session whose participant this is, if it joined through the SDK. */
  ofParticipant(instance: Instance, userId: string): SdkSession | undefined {
    return [...this.sessions.values()].find((s) => s.instanceUuid === instance.uuid && s.participantUserId === userId && s.ended === null);
  }
}

/** The participants still in the live instance. */
export function present(instance: Instance): Participant[] {
  return instance.participants.filter((p) => p.leave_time === null);
}

/** The session's live instance, or null once the meeting it joined has ended. */
export function liveInstanceOf(state: SandboxState, session: SdkSession): { meeting: Meeting; instance: Instance } | null {
  const meeting = state.meetings.get(session.meetingId);
  const instance = meeting?.live;
  if (!meeting || !instance) return null;
  if (session.instanceUuid !== null && session.instanceUuid !== instance.uuid) return null;
  return { meeting, instance };
}
