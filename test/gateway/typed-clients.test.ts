import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { V1_ENDPOINTS } from '../../mappings/v1-endpoints.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { expectTypedClientsRead } from '../support/typed-clients.js';
import { FUTURE, NO_LIMITS, uniqueEmail } from '../support/v1-answers.js';
import { JPEG_BYTES, v1Multipart } from './users-support.js';

/**
 * The typed-client oracle: every v1 endpoint's real answer over the real sandbox, decoded the way
 * typed clients decode it (test/support/typed-clients.ts, from docs/live-evidence.md). A session
 * number answered as a string, or a dashboard duration as "20 mins", fails here the way it failed
 * the Go binding and the nightly jobs.
 */

let gw: TestGateway;
let ownerId: string;
let ownerEmail: string;
let accountId: string;
/** A meeting that happened 75 minutes (recorded, with participants, QoS and phone legs) and one of 4 minutes. */
let longPast: { id: number; uuid: string };
let shortPast: { id: number; uuid: string };
let liveMeetingId: number;
let participantUserId: string;
let webinar: { id: number; uuid: string };
let roomId: string;
let chatSessionId: string;

const MAY = { from: '2024-05-01', to: '2024-05-31' };

async function happened(kind: 'meetings' | 'webinars', body: Record<string, unknown>, happen: Record<string, unknown>) {
  const created = await gw.v2('POST', `/users/${ownerId}/${kind}`, { body: { type: kind === 'meetings' ? 2 : 5, duration: 30, ...body } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const instance = await gw.control('POST', `/meetings/${created.body.id}/happen`, happen);
  expect(instance.status, JSON.stringify(instance.body)).toBe(201);
  return { id: created.body.id as number, uuid: instance.body.uuid as string };
}

const survey = (tag: string) => [
  { name: 'Ada Lovelace', email: 'ada@example.com', question_details: [{ question: `${tag}?`, answer: 'Yes' }] },
];

beforeAll(async () => {
  gw = await startTestGateway(NO_LIMITS);
  const me = (await gw.v2('GET', '/users/me')).body;
  ownerId = me.id;
  ownerEmail = me.email;
  accountId = gw.sandbox.state.accountsByKey.get(gw.credentials.api_key)!.id;

  longPast = await happened(
    'meetings',
    { topic: 'Long', start_time: '2024-05-02T10:00:00Z' },
    { start_time: '2024-05-02T10:00:00Z', duration_minutes: 75, participants: [{ name: 'Ann' }, { name: 'Bo' }], recording: true },
  );
  shortPast = await happened(
    'meetings',
    { topic: 'Short', start_time: '2024-05-09T10:00:00Z' },
    { start_time: '2024-05-09T10:00:00Z', duration_minutes: 4, recording: true },
  );
  const participants = (await gw.v2('GET', `/metrics/meetings/${longPast.id}/participants`, { query: { type: 'past' } })).body.participants;
  participantUserId = participants[0].user_id;
  const client = { device: 'Mac', ip_address: '117.83.222.228', location: 'Nanjing (CN)', network_type: 'Wifi', version: '3.5.35288.1217' };
  expect((await gw.control('POST', `/meetings/${longPast.id}/participants/${participants[0].id}/client`, client)).status).toBe(200);
  const sample = {
    date_time: '2024-05-02T10:05:00Z',
    audio_input: { bitrate: '29 kbps', latency: '39 ms', jitter: '11 ms', avg_loss: '2.5%', max_loss: '5.0%' },
  };
  expect((await gw.control('POST', `/meetings/${longPast.id}/participants/${participants[0].id}/qos`, sample)).status).toBe(201);
  const leg = {
    direction: 'call-out',
    phone_number: '+86 8208',
    start_time: '2024-05-02T10:25:34Z',
    end_time: '2024-05-02T10:26:48Z',
    total: 0.12,
  };
  expect((await gw.control('POST', `/meetings/${longPast.id}/phone-legs`, leg)).status).toBe(201);
  expect((await gw.control('POST', `/meetings/${shortPast.id}/meeting-connector-recording`, {})).status).toBe(200);

  liveMeetingId = (await gw.v2('POST', `/users/${ownerId}/meetings`, { body: { topic: 'On air' } })).body.id;
  expect((await gw.control('POST', `/meetings/${liveMeetingId}/start`)).status).toBe(201);

  webinar = await happened(
    'webinars',
    { topic: 'Town hall', start_time: '2024-05-20T18:00:00Z', settings: { approval_type: 0 } },
    {
      start_time: '2024-05-20T18:00:00Z',
      duration_minutes: 45,
      participants: [{ name: 'Dee', email: 'dee@example.com' }],
      polls: survey('Poll'),
      questions: survey('Q'),
    },
  );

  roomId = (await gw.control('POST', `/accounts/${accountId}/zoom-rooms`, { room_name: 'Board room', email: 'board@example.com' })).body.id;
  expect((await gw.control('POST', `/zoom-rooms/${roomId}/meetings`, { meeting_id: longPast.id })).status).toBe(200);
  expect((await gw.control('POST', `/zoom-rooms/${roomId}/meetings`, { meeting_id: liveMeetingId })).status).toBe(200);
  expect(
    (await gw.control('POST', `/accounts/${accountId}/crc-usage`, { date: '2024-05-03', hour: 9, max_usage: 2, total_usage: 5 })).status,
  ).toBe(201);
  expect(
    (await gw.control('POST', `/accounts/${accountId}/im-activity`, { user: ownerId, date: '2024-05-05', counts: { total_send: 3 } }))
      .status,
  ).toBe(201);
  chatSessionId = (
    await gw.control('POST', `/accounts/${accountId}/chat-sessions`, {
      type: 'Group',
      name: 'Support',
      messages: [{ message: 'first', sender: ownerEmail, date_time: '2024-05-04T10:00:00Z' }],
    })
  ).body.session_id;
});
afterAll(() => gw.close());

/** One v1 call and the answer typed clients must read; `setup` makes what the call needs and returns its params. */
interface Case {
  path: string;
  params: () => Promise<Record<string, string | number>> | Record<string, string | number>;
}

let counter = 0;
const uniqueName = (tag: string) => `${tag} ${process.pid}-${++counter}`;
const v1 = async (path: string, params: Record<string, string | number>) => {
  const answer = await gw.v1(path, params);
  expect(answer?.error, `${path}: ${JSON.stringify(answer)}`).toBeUndefined();
  return answer;
};
const v2User = async (action = 'custCreate') =>
  (
    await gw.v2('POST', '/users', {
      body: { action, user_info: { email: uniqueEmail('typed'), type: 2, first_name: 'Ada', last_name: 'Lovelace' } },
    })
  ).body as { id: string; email: string };
const newMeeting = async (params: Record<string, string> = {}) =>
  v1('/meeting/create', { host_id: ownerId, type: 2, topic: 'Typed', start_time: FUTURE, duration: 30, ...params });
const newWebinar = async (params: Record<string, string> = {}) =>
  v1('/webinar/create', { host_id: ownerId, topic: 'Typed', start_time: FUTURE, duration: 30, approval_type: 1, ...params });
const subAccount = async () =>
  v1('/ma/account/create', { email: uniqueEmail('sub'), first_name: 'Sub', last_name: 'Owner', password: 'secret-pass-1' });
/** What a plan subscription sends besides the account: its contact, address and base plan. */
const BILLING = {
  first_name: 'Bill',
  last_name: 'Payer',
  phone_number: '+1 555 0100',
  address: '1 Main St',
  city: 'Springfield',
  country: 'US',
  state: 'IL',
  zip: '62701',
  plan_base: '{"type":"monthly","hosts":5}',
};
const paidSubAccount = async () => {
  const { id } = await subAccount();
  await v1('/ma/account/plan/subscribe', { account_id: id, ...BILLING });
  return id as string;
};
const group = async (path: '/group' | '/im/group') => (await v1(`${path}/create`, { name: uniqueName('Typed') })).group_id as string;
const withMember = async (path: '/group' | '/im/group') => {
  const id = await group(path);
  const member = await v2User();
  await gw.v2('POST', `${path === '/group' ? '/groups' : '/im/groups'}/${id}/members`, { body: { members: [{ id: member.id }] } });
  return { id, member: member.id };
};
const pendingRegistrant = async () => {
  const created = await newWebinar();
  const registered = await v1('/webinar/register', { id: created.id, email: uniqueEmail('reg'), first_name: 'Reg', last_name: 'Istrant' });
  return { id: created.id as number, registrant: registered.registrant_id as string };
};

const CASES: Case[] = [
  {
    path: '/ma/account/create',
    params: () => ({ email: uniqueEmail('sub'), first_name: 'Sub', last_name: 'Owner', password: 'secret-pass-1' }),
  },
  { path: '/ma/account/list', params: async () => (await subAccount(), {}) },
  { path: '/ma/account/get', params: async () => ({ account_id: (await subAccount()).id }) },
  { path: '/ma/account/update', params: async () => ({ account_id: (await subAccount()).id, enable_share_rc: 'true' }) },
  { path: '/ma/account/delete', params: async () => ({ account_id: (await subAccount()).id }) },
  {
    path: '/ma/account/plan/subscribe',
    params: async () => ({ account_id: (await subAccount()).id, ...BILLING }),
  },
  {
    path: '/ma/account/plan/add',
    params: async () => ({ account_id: await paidSubAccount(), plan: '{"type":"large200_monthly","hosts":4}' }),
  },
  { path: '/ma/account/plan/get', params: async () => ({ account_id: await paidSubAccount() }) },
  {
    path: '/ma/account/plan/update',
    params: async () => ({ account_id: await paidSubAccount(), type: 1, plan: '{"type":"yearly","hosts":3}' }),
  },
  { path: '/ma/account/billing/update', params: async () => ({ account_id: await paidSubAccount(), city: 'Shelbyville' }) },

  { path: '/user/create', params: () => ({ email: uniqueEmail('create'), type: 1 }) },
  { path: '/user/autocreate', params: () => ({ email: uniqueEmail('auto'), type: 2, password: 'secret-pass-1' }) },
  { path: '/user/custcreate', params: () => ({ email: uniqueEmail('cust'), type: 2 }) },
  { path: '/user/ssocreate', params: () => ({ email: uniqueEmail('sso'), type: 2 }) },
  { path: '/user/list', params: () => ({}) },
  { path: '/user/pending', params: async () => (await v1('/user/create', { email: uniqueEmail('pending'), type: 1 }), {}) },
  { path: '/user/get', params: () => ({ id: ownerId }) },
  { path: '/user/getbyemail', params: () => ({ email: ownerEmail }) },
  { path: '/user/update', params: async () => ({ id: (await v2User()).id, dept: 'Engines' }) },
  { path: '/user/updatepassword', params: async () => ({ id: (await v2User()).id, password: 'new-secret-1' }) },
  { path: '/user/activate', params: async () => ({ id: (await v2User('create')).id }) },
  { path: '/user/deactivate', params: async () => ({ id: (await v2User()).id }) },
  { path: '/user/delete', params: async () => ({ id: (await v2User()).id }) },
  { path: '/user/permanentdelete', params: async () => ({ id: (await v2User()).id }) },
  { path: '/user/revoketoken', params: async () => ({ id: (await v2User('ssoCreate')).id }) },
  { path: '/user/assistant/set', params: async () => ({ id: ownerId, assistant_email: (await v2User()).email }) },
  { path: '/user/assistant/delete', params: () => ({ id: ownerId }) },
  {
    path: '/user/scheduleforhost/list',
    params: async () => {
      const host = await v2User();
      await v1('/user/assistant/set', { id: host.id, assistant_email: ownerEmail });
      return { id: ownerId };
    },
  },
  { path: '/user/checkemail', params: () => ({ email: ownerEmail }) },

  { path: '/meeting/create', params: () => ({ host_id: ownerId, type: 2, topic: 'Typed', start_time: FUTURE, duration: 30 }) },
  { path: '/meeting/list', params: async () => (await newMeeting(), { host_id: ownerId }) },
  { path: '/meeting/live', params: () => ({}) },
  {
    path: '/meeting/get',
    params: async () => ({ id: (await newMeeting({ type: '8', recurrence: '{"type":1,"end_times":2}' })).id, host_id: ownerId }),
  },
  { path: '/meeting/update', params: async () => ({ id: (await newMeeting()).id, host_id: ownerId, topic: 'Renamed' }) },
  { path: '/meeting/delete', params: async () => ({ id: (await newMeeting()).id, host_id: ownerId }) },
  { path: '/meeting/end', params: async () => ({ id: (await newMeeting()).id, host_id: ownerId }) },
  {
    path: '/meeting/register',
    params: async () => ({
      id: (await newMeeting({ option_registration: 'true' })).id,
      email: uniqueEmail('reg'),
      first_name: 'A',
      last_name: 'B',
    }),
  },

  { path: '/webinar/create', params: () => ({ host_id: ownerId, topic: 'Typed', start_time: FUTURE, duration: 30 }) },
  { path: '/webinar/list', params: async () => (await newWebinar({ approval_type: '2' }), { host_id: ownerId }) },
  { path: '/webinar/list/registration', params: async () => (await newWebinar(), { host_id: ownerId }) },
  {
    path: '/webinar/get',
    params: async () => ({ id: (await newWebinar({ type: '9', recurrence: '{"type":1,"end_times":2}' })).id, host_id: ownerId }),
  },
  { path: '/webinar/update', params: async () => ({ id: (await newWebinar()).id, host_id: ownerId, agenda: 'New' }) },
  { path: '/webinar/delete', params: async () => ({ id: (await newWebinar()).id, host_id: ownerId }) },
  { path: '/webinar/end', params: async () => ({ id: (await newWebinar()).id, host_id: ownerId }) },
  {
    path: '/webinar/register',
    params: async () => ({ id: (await newWebinar()).id, email: uniqueEmail('reg'), first_name: 'A', last_name: 'B' }),
  },
  { path: '/webinar/registration', params: async () => ({ id: (await pendingRegistrant()).id, host_id: ownerId }) },
  {
    path: '/webinar/registration/cancel',
    params: async () => {
      const { id, registrant } = await pendingRegistrant();
      return { id, host_id: ownerId, registrant_ids: registrant };
    },
  },
  { path: '/webinar/registrants/list', params: async () => ({ id: (await pendingRegistrant()).id, host_id: ownerId }) },
  {
    path: '/webinar/registrants/approve',
    params: async () => {
      const { id, registrant } = await pendingRegistrant();
      return { id, host_id: ownerId, registrant_ids: registrant };
    },
  },
  {
    path: '/webinar/panelists',
    params: async () => ({
      id: (await newWebinar({ panelists: '[{"name":"Pat Panel","email":"pat@example.com"}]' })).id,
      host_id: ownerId,
    }),
  },
  { path: '/webinar/uuid/list', params: () => ({ id: webinar.id, host_id: ownerId }) },
  { path: '/webinar/attendees/list', params: () => ({ id: webinar.id, host_id: ownerId }) },
  { path: '/webinar/polls', params: () => ({ id: webinar.id, host_id: ownerId }) },
  { path: '/webinar/questions', params: () => ({ id: webinar.id, host_id: ownerId }) },

  { path: '/group/create', params: () => ({ name: uniqueName('Typed') }) },
  { path: '/group/list', params: async () => (await group('/group'), {}) },
  { path: '/group/get', params: async () => ({ id: (await withMember('/group')).id }) },
  { path: '/group/edit', params: async () => ({ id: await group('/group'), name: uniqueName('Edited') }) },
  { path: '/group/delete', params: async () => ({ id: await group('/group') }) },
  { path: '/group/member/list', params: async () => ({ id: (await withMember('/group')).id }) },
  { path: '/group/member/add', params: async () => ({ id: await group('/group'), member_ids: (await v2User()).id }) },
  {
    path: '/group/member/delete',
    params: async () => {
      const { id, member } = await withMember('/group');
      return { id, member_ids: member };
    },
  },
  { path: '/im/group/create', params: () => ({ name: uniqueName('Typed') }) },
  { path: '/im/group/list', params: async () => (await group('/im/group'), {}) },
  { path: '/im/group/get', params: async () => ({ id: (await withMember('/im/group')).id }) },
  { path: '/im/group/edit', params: async () => ({ id: await group('/im/group'), name: uniqueName('Edited') }) },
  { path: '/im/group/delete', params: async () => ({ id: await group('/im/group') }) },
  { path: '/im/group/member/list', params: async () => ({ id: (await withMember('/im/group')).id }) },
  {
    path: '/im/group/member/delete',
    params: async () => {
      const { id, member } = await withMember('/im/group');
      return { id, member_ids: member };
    },
  },

  { path: '/recording/list', params: () => ({ host_id: ownerId, ...MAY }) },
  { path: '/recording/get', params: () => ({ meeting_id: longPast.uuid }) },
  { path: '/mc/recording/list', params: () => ({ host_id: ownerId, ...MAY }) },
  { path: '/chat/list', params: () => MAY },
  { path: '/chat/get', params: () => ({ session_id: chatSessionId, ...MAY }) },
  { path: '/h323/device/create', params: () => ({ name: 'Lobby', ip: '10.0.0.7' }) },
  { path: '/h323/device/list', params: async () => (await v1('/h323/device/create', { name: 'Studio', ip: '10.0.0.8' }), {}) },
  {
    path: '/h323/device/update',
    params: async () => ({ id: (await v1('/h323/device/create', { name: 'Old', ip: '10.0.0.9' })).id, name: 'New' }),
  },
  { path: '/h323/device/delete', params: async () => ({ id: (await v1('/h323/device/create', { name: 'Gone', ip: '10.0.0.10' })).id }) },
  { path: '/metrics/crc', params: () => MAY },
  { path: '/metrics/im', params: () => MAY },
  { path: '/metrics/meetings', params: () => ({ type: 2, ...MAY }) },
  { path: '/metrics/meetingdetail', params: () => ({ meeting_id: longPast.uuid, type: 2 }) },
  { path: '/metrics/webinars', params: () => ({ type: 2, ...MAY }) },
  { path: '/metrics/webinardetail', params: () => ({ meeting_id: webinar.uuid, type: 2 }) },
  { path: '/metrics/qos', params: () => ({ meeting_id: longPast.uuid, type: 2, user_id: participantUserId }) },
  { path: '/metrics/zoomrooms', params: () => ({}) },
  { path: '/metrics/zoomroomdetail', params: () => ({ id: roomId, ...MAY }) },
  { path: '/report/getaccountreport', params: () => MAY },
  { path: '/report/getaudioreport', params: () => MAY },
  { path: '/report/getdailyreport', params: () => ({ year: 2024, month: 5 }) },
  { path: '/report/getuserreport', params: () => ({ user_id: ownerId, ...MAY }) },
  // Last: it removes the recording /recording/get reads.
  { path: '/recording/delete', params: () => ({ meeting_id: longPast.uuid }) },
];

describe('every endpoint answers what typed clients decode', () => {
  it('drives every v1 endpoint (no served path is left out)', () => {
    const driven = new Set([...CASES.map((c) => c.path), '/user/uploadpicture', '/user/checkzpk']);
    expect(V1_ENDPOINTS.map((e) => e.path).filter((path) => !driven.has(path))).toEqual([]);
  });

  for (const { path, params } of CASES) {
    it(path, async () => {
      expectTypedClientsRead(path, await gw.v1(path, await params()));
    });
  }

  it('/user/checkzpk', async () => {
    // Refused since the ZPK's retirement (docs/decisions.md): typed clients read v1's error envelope.
    const answer = await gw.v1('/user/checkzpk', { zpk: 'a-zpk-from-before-the-retirement' });
    expect(answer).toEqual({ error: { code: 300, message: expect.stringMatching(/^Invalid parameter: zpk\./) } });
  });

  it('/user/uploadpicture', async () => {
    const { id } = await v2User();
    // Not in the reference (our spec adds it): typed clients read the user action answer.
    const answer = await v1Multipart(gw, '/user/uploadpicture', { id, pic_file: new File([JPEG_BYTES], 'me.jpg', { type: 'image/jpeg' }) });
    expect(answer).toEqual({ id, updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/) });
  });

  it('the lists the evidence settles have items, so their item types are checked (not vacuous)', async () => {
    for (const [path, params, list] of [
      ['/meeting/list', { host_id: ownerId }, 'meetings'],
      ['/meeting/live', {}, 'meetings'],
      ['/webinar/list/registration', { host_id: ownerId }, 'webinars'],
      ['/metrics/meetings', { type: 2, ...MAY }, 'meetings'],
      ['/metrics/meetings', { type: 1 }, 'meetings'],
      ['/metrics/webinars', { type: 2, ...MAY }, 'meetings'],
      ['/mc/recording/list', { host_id: ownerId, ...MAY }, 'meetings'],
      ['/metrics/zoomroomdetail', { id: roomId, ...MAY }, 'past_meetings'],
    ] as const) {
      const answer = await v1(path, params);
      expect(answer[list].length, `${path} ${JSON.stringify(params)}`).toBeGreaterThan(0);
      expectTypedClientsRead(path, answer);
    }
  });

  it('dashboard durations are clock times, MM:SS under an hour and HH:MM:SS from an hour on, "" while live', async () => {
    const past = await v1('/metrics/meetings', { type: 2, ...MAY });
    const byId = new Map(past.meetings.map((m: { id: number; duration: string }) => [m.id, m.duration]));
    expect(byId.get(longPast.id)).toBe('01:15:00');
    expect(byId.get(shortPast.id)).toBe('04:00');
    expect((await v1('/metrics/meetingdetail', { meeting_id: longPast.uuid, type: 2 })).duration).toBe('01:15:00');
    const live = await v1('/metrics/meetings', { type: 1 });
    expect(live.meetings.find((m: { id: number }) => m.id === liveMeetingId)).toMatchObject({ duration: '', end_time: '' });
  });
});
