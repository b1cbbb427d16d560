import { notFound, V2Code } from '../errors.js';
import type { Account } from '../model/account.js';
import type { Instance, Meeting, MeetingKind } from '../model/meeting.js';
import type { SandboxState } from '../state.js';

/** A meeting or webinar instance with the meeting it belongs to. */
export interface InstanceOf {
  meeting: Meeting;
  instance: Instance;
}

/**
 * A uuid path value as the client meant it. Uuids hold `/`, `+` and `=`, so clients encode them,
 * and the service requires a second encoding when one starts with `/` or holds `//`; clients that
 * know this double-encode every uuid. The router decoded once already; a uuid never contains `%`,
 * so a `%` left over means the value was encoded twice.
 */
export function decodeUuidParam(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

const isMeetingNumber = (ref: string) => /^\d{1,16}$/.test(ref);

export const endedInstancesOf = (meeting: Meeting) => meeting.instances.filter((i) => i.end_time !== null);

const noEndedInstance = (kind: MeetingKind, ref: string) =>
  notFound(
    kind === 'webinar' ? V2Code.webinarNotFound : V2Code.meetingNotFound,
    `${kind === 'webinar' ? 'Webinar' : 'Meeting'} ${ref} not found or has not ended.`,
  );

/** An ended instance of `kind` that `account` owns, by its (possibly twice-encoded) uuid. */
export function requireEndedInstanceByUuid(state: SandboxState, account: Account, rawUuid: string, kind: MeetingKind): InstanceOf {
  const uuid = decodeUuidParam(rawUuid);
  const found = state.instancesByUuid.get(uuid);
  if (!found || found.meeting.kind !== kind || found.meeting.account_id !== account.id || found.instance.end_time === null) {
    throw noEndedInstance(kind, uuid);
  }
  return found;
}

/**
 * The `{meetingId}` / `{webinarId}` of the report endpoints: a meeting or webinar number, which
 * means its latest ended instance, or an instance uuid.
 */
export function requireReportedInstance(state: SandboxState, account: Account, rawRef: string, kind: MeetingKind): InstanceOf {
  const ref = decodeUuidParam(rawRef);
  if (!isMeetingNumber(ref)) return requireEndedInstanceByUuid(state, account, ref, kind);
  const meeting = state.requireMeeting(account, ref, kind);
  const instance = endedInstancesOf(meeting).at(-1);
  if (!instance) throw noEndedInstance(kind, ref);
  return { meeting, instance };
}
