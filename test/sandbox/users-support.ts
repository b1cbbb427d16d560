import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { meetingNumber, meetingUuid, opaqueId } from '../../src/sandbox/ids.js';
import { newAccount } from '../../src/sandbox/accounts/factory.js';
import type { Account } from '../../src/sandbox/model/account.js';
import type { Meeting, MeetingKind } from '../../src/sandbox/model/meeting.js';
import { newUser } from '../../src/sandbox/users/factory.js';
import type { SandboxState } from '../../src/sandbox/state.js';
import { signV2Token, type RunningSandbox } from '../support/sandbox.js';

/** Helpers shared by the users-area tests. */

export const uniqueEmail = (prefix = 'user') => `${prefix}.${randomUUID().slice(0, 8)}@example.com`;

export interface CreatedUser {
  id: string;
  email: string;
}

/** POST /users and expect 201. */
export async function createUser(sb: RunningSandbox, userInfo: Record<string, unknown> = {}, action = 'custCreate'): Promise<CreatedUser> {
  const email = (userInfo.email as string | undefined) ?? uniqueEmail();
  const res = await sb.v2('POST', '/users', { body: { action, user_info: { type: 2, ...userInfo, email } } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id, email };
}

export async function getUser(sb: RunningSandbox, ref: string) {
  const res = await sb.v2('GET', `/users/${encodeURIComponent(ref)}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** The 400 Validation Failed answer naming `field`. */
export function expectFieldError(res: { status: number; body: any }, field: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.code).toBe(300);
  expect(res.body.message).toBe('Validation Failed.');
  expect(
    res.body.errors.map((e: { field: string }) => e.field),
    JSON.stringify(res.body),
  ).toContain(field);
}

export function expectUserNotFound(res: { status: number; body: any }): void {
  expect(res.status, JSON.stringify(res.body)).toBe(404);
  expect(res.body.code).toBe(1001);
}

/** A sub account of the master with its owner, put straight into the state (the accounts area is built separately). */
export function plantSubAccount(sb: RunningSandbox): Account {
  const { state, master } = sb.sandbox;
  const createdAt = state.nowIso();
  const owner = newUser({
    accountId: 'pending',
    email: uniqueEmail('sub-owner'),
    type: 2,
    createdBy: 'create',
    status: 'active',
    createdAt,
    host: 'https://sandbox.v1gate.local',
  });
  const account = newAccount({ ownerId: owner.id, accountName: 'Sub', masterAccountId: master.id, createdAt });
  owner.account_id = account.id;
  state.addAccount(account);
  state.addUser(owner);
  return account;
}

/**
 * A meeting or webinar hosted by `hostId`, put straight into the state: the meetings area is built
 * separately, and these tests only need the records a user deletion must keep consistent.
 */
export function plantMeeting(
  state: SandboxState,
  hostId: string,
  accountId: string,
  kind: MeetingKind,
  { recorded = false, startUrl = 'https://sandbox.v1gate.local/s/{id}' } = {},
): Meeting {
  const id = meetingNumber();
  const instanceUuid = meetingUuid();
  const meeting: Meeting = {
    kind,
    id,
    uuid: meetingUuid(),
    host_id: hostId,
    account_id: accountId,
    topic: `${kind} of ${hostId}`,
    type: kind === 'meeting' ? 2 : 5,
    start_time: '2030-01-01T10:00:00Z',
    duration: 30,
    timezone: 'UTC',
    password: '',
    h323_password: '',
    agenda: '',
    created_at: state.nowIso(),
    start_url: startUrl.replace('{id}', String(id)),
    join_url: `https://sandbox.v1gate.local/j/${id}`,
    recurrence: null,
    settings: {},
    occurrences: [],
    registrants: [],
    panelists: [],
    instances: [
      {
        uuid: instanceUuid,
        start_time: '2029-01-01T10:00:00Z',
        end_time: '2029-01-01T10:30:00Z',
        participants: [],
        recording_files: recorded
          ? [
              {
                id: opaqueId(),
                meeting_id: instanceUuid,
                recording_start: '2029-01-01T10:00:00Z',
                recording_end: '2029-01-01T10:30:00Z',
                file_type: 'MP4',
                file_size: 1000,
                play_url: 'https://sandbox.v1gate.local/rec/play/1',
                download_url: 'https://sandbox.v1gate.local/rec/download/1',
                status: 'completed',
                recording_type: 'shared_screen_with_speaker_view',
              },
            ]
          : [],
        polls: [],
        questions: [],
      },
    ],
    live: null,
  };
  state.meetings.set(id, meeting);
  state.instancesByUuid.set(instanceUuid, { meeting, instance: meeting.instances[0]! });
  return meeting;
}

/** POST a multipart form to the v2 API (the test client only sends JSON). */
export async function postForm(sb: RunningSandbox, path: string, form: FormData) {
  const { apiKey, apiSecret } = sb.sandbox.credentials;
  const response = await fetch(`${sb.url}/v2${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await signV2Token(apiKey, apiSecret)}` },
    body: form,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}
