import { z } from 'zod';
import {
  isJwtSignature,
  jwtSdkKey,
  SIGNATURE_ERRORS,
  verifyJwtSignature,
  verifySignature,
  type SdkRole,
  type VerifyResult,
} from '../../v2-contract/sdk-signature.js';
import type { Account } from '../model/account.js';
import type { Meeting } from '../model/meeting.js';
import { attendeeBeforeHost, joinParticipant, startInstance } from '../report/lifecycle.js';
import type { SandboxState } from '../state.js';
import type { SdkApps } from './apps.js';
import { invalidParameter, SDK_CODES, SdkError } from './errors.js';
import { identityKey, type SdkRegistry, type SdkSession } from './sessions.js';
import { userWithOnBehalfToken } from '../users/tokens.js';

/**
 * `MeetingSdk.join` on the sandbox side. The checks run in the order a caller can fix them:
 * parameters, API key, signature (HMAC, meeting number, role, age: src/v2-contract/sdk-signature.ts; or today's
 * JWT, checked against the secret of the SDK app it names, its claims as the service applies them), the
 * meeting, webinar rules, password, and only then what the meeting's state allows. A host join
 * starts the meeting through the same lifecycle call as the control API's start, so v2 events,
 * past meetings and reports see it.
 */

export const joinBody = z.object({
  meetingNumber: z.union([z.number().int().positive(), z.string().regex(/^\d{1,12}$/)]),
  userName: z.string().trim().min(1).max(64),
  userEmail: z.string().max(128).optional(),
  passWord: z.string().max(64).optional(),
  signature: z.string().min(1).max(2048),
  /** The 1.9.1 join's: the account's API key. A JWT signature names its SDK app itself. */
  apiKey: z.string().min(1).max(256).optional(),
  /** Today's join's: the SDK key, which must be the one the JWT signature names. */
  sdkKey: z.string().min(1).max(256).optional(),
  /** Not in the 1.9.1 reference, but the 1.9.1 bundle reads it from join: the host's zak. */
  zak: z.string().min(1).max(512).optional(),
  /** Today's: an on-behalf token (GET /users/{userId}/token?type=onbehalf), to join a meeting of another account. */
  obfToken: z.string().min(1).max(512).optional(),
});

export type JoinBody = z.output<typeof joinBody>;

export function parseJoin(raw: unknown): JoinBody {
  const parsed = joinBody.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw invalidParameter(String(issue?.path[0] ?? 'body'), issue?.message ?? 'invalid');
}

export function join(state: SandboxState, registry: SdkRegistry, apps: SdkApps, body: JoinBody): SdkSession {
  const meetingNumber = String(body.meetingNumber);
  const { account, role } = isJwtSignature(body.signature)
    ? jwtSigner(state, apps, body, meetingNumber)
    : { account: hmacAccount(state, body), role: undefined };
  const signedRole = role ?? signatureRole(account, body.signature, meetingNumber);
  const meeting = state.meetings.get(Number(meetingNumber));
  if (!meeting || (meeting.account_id !== account.id && !onBehalf(state, body, signedRole, meeting)))
    throw new SdkError(SDK_CODES.meetingNotFound, `Meeting ${meetingNumber} was not found.`, 404);
  const email = body.userEmail?.trim() ?? '';
  if (meeting.kind === 'webinar') {
    if (signedRole === 1) throw new SdkError(SDK_CODES.webinarStartNotAllowed, 'Starting a webinar from the web is not allowed.', 403);
    if (!email) throw new SdkError(SDK_CODES.webinarNeedsEmail, 'A webinar requires an email.');
  }
  if (meeting.password !== '' && body.passWord !== meeting.password) throw new SdkError(SDK_CODES.wrongPassword, 'Wrong password.', 403);
  if (body.zak !== undefined) checkZak(state, meeting, body.zak);
  // Today's SDK starts a meeting as its host only with the host's ZAK (the 1.9.1 one never asked for it).
  if (role === 1 && body.zak === undefined && !meeting.live)
    throw new SdkError(
      SDK_CODES.zakRequired,
      "Starting a meeting needs the host's ZAK (zak): a role 1 signature alone is not enough.",
      403,
    );
  return signedRole === 1
    ? hostJoin(state, registry, meeting, body.userName, email)
    : attendeeJoin(state, registry, meeting, body.userName, email);
}

/**
 * A meeting of another account is joined (as an attendee) only with an on-behalf token of a user
 * the sandbox gave one to; without it the meeting is as unknown as before. The token's user "must
 * already be in the meeting for the join to succeed" (docs/live-evidence.md, "Today's meeting SDK
 * signature"): until then the page is refused as for a meeting not started (3008, the sandbox's
 * choice of code).
 */
function onBehalf(state: SandboxState, body: JoinBody, role: SdkRole, meeting: Meeting): boolean {
  const owner = role === 0 && body.obfToken !== undefined ? userWithOnBehalfToken(state, body.obfToken) : undefined;
  if (!owner) return false;
  if (!meeting.live?.participants.some((p) => p.id === owner.id && p.leave_time === null))
    throw new SdkError(SDK_CODES.notStarted, "The on-behalf token's user is not in the meeting.", 409);
  return true;
}

function hmacAccount(state: SandboxState, body: JoinBody): Account {
  const account = body.apiKey === undefined ? undefined : state.accountsByKey.get(body.apiKey);
  if (!account) throw new SdkError(SDK_CODES.apiWrong, 'The API key is not known.', 403);
  return account;
}

/** The account and role of a JWT signature: the SDK app it names, its HS256 over that app's secret, its claims. */
function jwtSigner(state: SandboxState, apps: SdkApps, body: JoinBody, meetingNumber: string): { account: Account; role: SdkRole } {
  const key = jwtSdkKey(body.signature);
  const app = key === undefined ? undefined : apps.withKey(key);
  const account = app && state.accounts.get(app.accountId);
  if (!app || !account) throw new SdkError(SIGNATURE_ERRORS.invalid.code, SIGNATURE_ERRORS.invalid.message, 403);
  if (body.sdkKey !== undefined && body.sdkKey !== app.key)
    throw new SdkError(SDK_CODES.apiWrong, 'The SDK key is not the one that signed.', 403);
  const result = verifyJwtSignature(
    body.signature,
    { sdkSecret: app.secret, meetingNumber },
    { allowedSkewMs: 5 * 60_000, now: state.now().getTime() },
  );
  if (!result.ok) throw new SdkError(result.error.code, result.error.message, 403);
  return { account, role: result.claims.role };
}

/** The role the signature was made for. HMAC is checked before role, so a role error means the other role signed it. */
function signatureRole(account: Account, signature: string, meetingNumber: string): SdkRole {
  const expect = (role: SdkRole): VerifyResult =>
    verifySignature(signature, { apiKey: account.apiKey, apiSecret: account.apiSecret, meetingNumber, role });
  let result = expect(1);
  let role: SdkRole = 1;
  if (!result.ok && result.error.code === SIGNATURE_ERRORS.role.code) {
    result = expect(0);
    role = 0;
  }
  if (!result.ok) throw new SdkError(result.error.code, result.error.message, 403);
  return role;
}

/** A zak names its user: it must be this meeting's host. */
function checkZak(state: SandboxState, meeting: Meeting, zak: string): void {
  const user = [...state.users.values()].find((u) => u.tokens.zak === zak);
  if (!user) throw new SdkError(SDK_CODES.hostNotFound, 'No user has this zak.', 403);
  if (user.id !== meeting.host_id)
    throw new SdkError(SDK_CODES.cannotHostAnother, `The zak's user cannot host meeting ${meeting.id}.`, 403);
}

function hostJoin(state: SandboxState, registry: SdkRegistry, meeting: Meeting, name: string, email: string): SdkSession {
  let instance = meeting.live;
  let userId: string;
  if (!instance) {
    // The control API's start: a new instance, the host its first participant, meeting.started sent.
    instance = startInstance(state, meeting);
    const host = instance.participants[0]!;
    host.name = name;
    userId = host.user_id;
  } else {
    const host = state.users.get(meeting.host_id);
    userId = joinParticipant(state, meeting, instance, { name, email: email || host?.email, joinTime: state.nowIso() }).user_id;
  }
  registry.room(instance).hostUserIds.add(userId);
  // Whoever waited for the host comes in with them.
  for (const waiting of registry.ofMeeting(meeting.id))
    if (waiting.waiting === 'host' && waiting.ended === null) admit(state, registry, meeting, waiting);
  return registry.add({ meetingId: meeting.id, name, email, role: 1, instanceUuid: instance.uuid, participantUserId: userId });
}

function attendeeJoin(state: SandboxState, registry: SdkRegistry, meeting: Meeting, name: string, email: string): SdkSession {
  const instance = meeting.live;
  if (!instance) {
    // Without its host the sandbox cannot run an instance (the lifecycle starts one with the host in
    // it), so join-before-host meetings answer "not started"; the others let the attendee wait.
    if (meeting.settings['join_before_host'] === true) throw new SdkError(SDK_CODES.notStarted, 'The meeting has not started.', 409);
    attendeeBeforeHost(state, meeting);
    return registry.add({ meetingId: meeting.id, name, email, role: 0, waiting: 'host' });
  }
  const room = registry.room(instance);
  if (room.removed.has(identityKey(name, email))) throw new SdkError(SDK_CODES.removed, 'You have been removed from this meeting.', 403);
  if (room.locked) throw new SdkError(SDK_CODES.error, 'The meeting is locked.', 409);
  const session = registry.add({ meetingId: meeting.id, name, email, role: 0 });
  admit(state, registry, meeting, session);
  return session;
}

/** Into the live instance: a participant row now, muted when the meeting mutes upon entry. */
export function admit(state: SandboxState, registry: SdkRegistry, meeting: Meeting, session: SdkSession): void {
  const instance = meeting.live;
  if (!instance) return;
  const participant = joinParticipant(state, meeting, instance, {
    name: session.name,
    email: session.email || undefined,
    joinTime: state.nowIso(),
  });
  registry.room(instance).muted.set(participant.user_id, meeting.settings['mute_upon_entry'] === true);
  session.instanceUuid = instance.uuid;
  session.participantUserId = participant.user_id;
  session.waiting = null;
  session.heldUserId = null;
}
