import { invalidField } from '../errors.js';
import { digits, meetingNumber, meetingUuid } from '../ids.js';
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
  const password = body.password ?? '';
  const meeting: Meeting = {
    kind: spec.kind,
    id,
    uuid: meetingUuid(),
    host_id: host.id,
    account_id: account.id,
    topic: body.topic ?? spec.defaultTopic,
    ...schedule,
    password,
    h323_password: h323PasswordFor(password),
    agenda: body.agenda ?? '',
    created_at: state.nowIso(),
    start_url: `${publicUrl}/s/${id}?zak=${host.tokens.zak}`,
    join_url: `${publicUrl}/j/${id}`,
    settings: { ...spec.defaultSettings(host), ...body.settings },
    registrants: [],
    panelists: [],
    instances: [],
    live: null,
  };
  state.meetings.set(id, meeting);
  return meeting;
}

export function updateSession(meeting: Meeting, body: SessionBody, host: User, { spec, state, account }: SessionWrite): void {
  const schedule = planSchedule(body, { spec, current: meeting, hostTimeZone: host.timezone, nowMs: state.now().getTime() });
  checkAlternativeHosts(body, state, account);
  Object.assign(meeting, schedule);
  if (body.topic !== undefined) meeting.topic = body.topic;
  if (body.agenda !== undefined) meeting.agenda = body.agenda;
  if (body.password !== undefined && body.password !== meeting.password) {
    meeting.password = body.password;
    meeting.h323_password = h323PasswordFor(body.password);
  }
  if (body.settings) meeting.settings = { ...meeting.settings, ...body.settings };
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
