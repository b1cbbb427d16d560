import { invalidField } from '../errors.js';
import { digits, encryptedPasscode, meetingNumber, meetingUuid, passcode } from '../ids.js';
import type { Account } from '../model/account.js';
import type { Meeting } from '../model/meeting.js';
import type { User } from '../model/user.js';
import type { SandboxState } from '../state.js';
import type { KindSpec, SessionBody } from './kinds.js';
import { planSchedule } from './schedule.js';

/**
 * Creating and updating a meeting or webinar record from a validated body. Everything that can
 * refuse the body runs before anything is written, so a refused request changes nothing.
 */

export interface SessionWrite {
  spec: KindSpec;
  state: SandboxState;
  account: Account;
  publicUrl: string;
}

export function createSession(body: SessionBody, host: User, { spec, state, account, publicUrl }: SessionWrite): Meeting {
  const schedule = planSchedule(body, { spec, current: null, hostTimeZone: host.timezone, nowMs: state.now().getTime() });
  checkAlternativeHosts(body, state, account);
  const id = unusedNumber(state);
  // Today a meeting scheduled without a passcode gets one (the account's default "require a
  // passcode"), carried encrypted in its join link; webinars keep what they are given.
  const password = body.password ?? (spec.kind === 'meeting' ? passcode() : '');
  const meeting: Meeting = {
    kind: spec.kind,
    id,
    uuid: meetingUuid(),
    host_id: host.id,
    account_id: account.id,
    topic: body.topic ?? spec.defaultTopic,
    ...schedule,
    password: '',
    h323_password: '',
    agenda: body.agenda ?? '',
    created_at: state.nowIso(),
    start_url: `${publicUrl}/s/${id}?zak=${host.tokens.zak}`,
    join_url: `${publicUrl}/j/${id}`,
    settings: { ...spec.defaultSettings(host), ...authenticationOf(body.settings) },
    registrants: [],
    panelists: [],
    instances: [],
    live: null,
  };
  setPasscode(meeting, password);
  state.meetings.set(id, meeting);
  return meeting;
}

/**
 * A meeting's passcode and what follows from it: the H.323 passcode, the encrypted one and the
 * join link's `?pwd=` (a link that joins without asking). No passcode, neither.
 */
function setPasscode(meeting: Meeting, password: string): void {
  meeting.password = password;
  meeting.h323_password = h323PasswordFor(password);
  const link = meeting.join_url.replace(/\?pwd=.*$/, '');
  if (meeting.kind !== 'meeting' || password === '') {
    delete meeting.encrypted_password;
    meeting.join_url = link;
    return;
  }
  meeting.encrypted_password = encryptedPasscode();
  meeting.join_url = `${link}?pwd=${meeting.encrypted_password}`;
}

export function updateSession(meeting: Meeting, body: SessionBody, host: User, { spec, state, account }: SessionWrite): void {
  const schedule = planSchedule(body, { spec, current: meeting, hostTimeZone: host.timezone, nowMs: state.now().getTime() });
  checkAlternativeHosts(body, state, account);
  Object.assign(meeting, schedule);
  if (body.topic !== undefined) meeting.topic = body.topic;
  if (body.agenda !== undefined) meeting.agenda = body.agenda;
  if (body.password !== undefined && body.password !== meeting.password) setPasscode(meeting, body.password);
  if (body.settings) meeting.settings = { ...meeting.settings, ...authenticationOf(body.settings) };
}

/**
 * The deprecated pair a webinar still takes, read as today's authentication settings (the newer
 * fields win when both are sent), and not kept under its old names: answers derive those.
 */
function authenticationOf(settings: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!settings) return {};
  const { enforce_login: login, enforce_login_domains: domains, ...rest } = settings;
  return {
    ...(login === undefined ? {} : { meeting_authentication: login }),
    ...(domains === undefined ? {} : { authentication_domains: domains }),
    ...rest,
  };
}

/** Alternative hosts must be users of the same account, named by email or id. */
function checkAlternativeHosts(body: SessionBody, state: SandboxState, account: Account): void {
  const value = body.settings?.alternative_hosts;
  if (typeof value !== 'string') return;
  for (const ref of value
    .split(/[,;]/)
    .map((r) => r.trim())
    .filter(Boolean)) {
    if (!state.findUser(account, ref)) throw invalidField('settings.alternative_hosts', `Not a user of this account: ${ref}.`);
  }
}

/**
 * Room systems dial in with digits only: a numeric password is its own H.323 password, any other
 * gets a numeric one of its own; no password, no H.323 password.
 */
function h323PasswordFor(password: string): string {
  if (password === '') return '';
  return /^\d+$/.test(password) ? password : digits(6);
}

/** Meeting and webinar numbers share one space. */
function unusedNumber(state: SandboxState): number {
  let id = meetingNumber();
  while (state.meetings.has(id)) id = meetingNumber();
  return id;
}
