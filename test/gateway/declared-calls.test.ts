import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toRecordedCall, type RecordedCall } from '../../src/compare/calls.js';
import { makeRecipe } from '../../src/recipe/recipe.js';
import { ALL_ENDPOINTS } from '../../src/translators/endpoints.js';
import type { EndpointDefinition } from '../../src/translators/kit/define.js';
import { callCountOf } from '../../src/translators/kit/call-counts.js';
import { canonicalPath } from '../../src/translators/kit/registry.js';
import type { OutboundGate, V2CallObservation } from '../../src/upstream/client.js';
import { V2Error } from '../../src/upstream/errors.js';
import type { CallObserver } from '../../src/v1-steps/observe.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { FUTURE, uniqueEmail, v2User } from '../support/v1-answers.js';
import { createUsers, uniqueName } from './groups-support.js';
import { createMeeting, createWebinar, registerV2 } from './registration-support.js';
import { meetingHappened } from './reports-support.js';
import { JPEG_BYTES, v1Multipart } from './users-support.js';

/**
 * Every endpoint is held to the v2 routes it declares. The compiler proves most of it: `handle`'s
 * `ctx.v2` takes only targets of the routes in `v2Calls`, `ctx.undoV2` only those of `v2Undo`, and
 * a helper shared by endpoints only a context over routes its caller declares
 * (src/translators/kit/define.ts; src/translators/kit/declared-routes.test-d.ts shows each refusal),
 * and which schema checks a call's answer is its route's row of the one answer table
 * (src/translators/kit/v2-answers/table.ts), so no drive here checks answers.
 * What types cannot prove is held here, over one real gateway and the real sandbox: every v1
 * endpoint is driven — its usual call, then the same call with the host named by email (the host
 * check's lookup), then once more per write it makes with that write failing (the rollback's
 * undos) — and
 * - no route is declared in vain: each of `v2Calls` is called, each of `v2Undo` undone with, in
 *   some drive (a declaration the compiler takes on trust: shadow mode's "this endpoint only reads",
 *   the metrics labels and docs/coverage.md rest on it);
 * - what an endpoint written once for two kinds calls is its own kind's: the compiler sees
 *   `kind.v2.get` as either kind's route, so only a run tells which was called;
 * - the calls a v1 call makes are as many as docs/coverage.md says.
 */

type Params = Record<string, string | number | string[] | File | undefined>;
/** Makes what one endpoint's call needs (through v2 and the sandbox's control API), and answers the call's params. */
type Scenario = () => Promise<Params>;

/** Fails the n-th write (never an undo) of the v1 calls made while armed, before it is sent. */
const faults: OutboundGate & { failWrite: number; writes: number } = {
  failWrite: 0,
  writes: 0,
  schedule(_credentials, { route }, task, options) {
    if (route.method === 'GET' || options?.priority === 'undo' || this.failWrite === 0) return task();
    if (++this.writes === this.failWrite) return Promise.reject(new V2Error(500, 500, 'Injected failure.'));
    return task();
  },
  penalize() {},
};

/** The v2 calls of each endpoint, as the facade's observer saw them. */
const made = new Map<string, V2CallObservation[]>();
/** How many v2 calls each v1 call made (what its x-v2-calls header says), in the order they were made. */
const perCall: { endpoint: string; routes: string[] }[] = [];
/** Every call as the recorder writes it (V1_RECORD_FILE): what the way-out recipe is made from. */
const recorded: RecordedCall[] = [];
const observer: CallObserver = (record) => {
  if (record.endpoint === undefined) return;
  recorded.push(toRecordedCall(record));
  made.set(record.endpoint, [...(made.get(record.endpoint) ?? []), ...record.v2Calls]);
  perCall.push({ endpoint: record.endpoint, routes: record.v2Calls.map((call) => call.route.name) });
};

let gw: TestGateway;
let owner: { id: string; email: string; account_id: string };
let accountId: string;
beforeAll(async () => {
  gw = await startTestGateway({}, { outbound: faults, observers: [observer] });
  owner = (await gw.v2('GET', '/users/me')).body;
  accountId = gw.sandbox.state.accountsByKey.get(gw.credentials.api_key)!.id;
});
afterAll(() => gw.close());

/** One v1 call: a form, or multipart when a value is a file. */
async function send(path: string, params: Params): Promise<Record<string, any>> {
  const values = Object.values(params);
  if (values.some((value) => value instanceof File)) {
    return v1Multipart(gw, path, Object.fromEntries(Object.entries(params).map(([k, v]) => [k, v instanceof File ? v : String(v)])));
  }
  return gw.v1(path, params as Record<string, string | number | string[] | undefined>);
}

async function v2Created(method: string, path: string, body: unknown): Promise<any> {
  const answer = await gw.v2(method, path, { body });
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  return answer.body;
}
const control = async (path: string, body: unknown = {}): Promise<any> => {
  const answer = await gw.control('POST', path, body);
  expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  return answer.body;
};

const OWNER = { first_name: 'Sub', last_name: 'Owner', password: 'secret-pass-1' };
const CONTACT = {
  first_name: 'Bill',
  last_name: 'Payer',
  phone_number: '+1 555 0100',
  address: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  zip: '62701',
  country: 'US',
};
const subAccount = async (withPlan = false): Promise<string> => {
  const email = uniqueEmail('sub');
  const { id } = await v2Created('POST', '/accounts', { ...OWNER, email });
  if (withPlan)
    await v2Created('POST', `/accounts/${id}/plans`, { contact: { ...CONTACT, email }, plan_base: { type: 'monthly', hosts: 5 } });
  return id;
};
const group = async (collection: '/groups' | '/im/groups', members: string[] = []): Promise<string> => {
  const { id } = await v2Created('POST', collection, { name: uniqueName() });
  if (members.length) await v2Created('POST', `${collection}/${id}/members`, { members: members.map((memberId) => ({ id: memberId })) });
  return id;
};
const userIds = async (count: number) => (await createUsers(gw, count)).map((user) => user.id);
/** A webinar of the owner that happened, with a poll and a question; answers its number and instance uuid. */
const heldWebinar = async (): Promise<{ id: string; uuid: string }> => {
  const webinar = await createWebinar(gw);
  await registerV2(gw, webinar.id, { email: uniqueEmail('guest') });
  const entry = { name: 'Guest', email: 'guest@example.com', question_details: [{ question: 'Why?', answer: 'Because' }] };
  const held = await control(`/meetings/${webinar.id}/happen`, {
    duration_minutes: 30,
    polls: [entry],
    questions: [entry],
    participants: [{ name: 'Ann' }],
  });
  return { id: String(webinar.id), uuid: held.uuid };
};
const recordedMeeting = async (): Promise<{ id: number; uuid: string }> => {
  const meeting = await v2Created('POST', `/users/${owner.id}/meetings`, {
    topic: 'Recorded',
    type: 2,
    start_time: '2024-04-03T09:00:00Z',
    duration: 30,
  });
  const held = await control(`/meetings/${meeting.id}/happen`, {
    start_time: '2024-04-03T09:00:00Z',
    duration_minutes: 30,
    recording: true,
  });
  return { id: meeting.id, uuid: held.uuid };
};
const session = async (kind: 'meeting' | 'webinar') => (kind === 'meeting' ? createMeeting(gw) : createWebinar(gw));
const ownSession = (kind: 'meeting' | 'webinar') => async () => ({ id: String((await session(kind)).id), host_id: owner.id });
const MAY = { from: '2024-05-01', to: '2024-05-31' };

const userCreate =
  (extra: Params = {}) =>
  async () => ({
    email: uniqueEmail('created'),
    type: 1,
    dept: 'Sales',
    enable_large: 'true',
    large_capacity: 500,
    group_id: await group('/groups'),
    imgroup_id: await group('/im/groups'),
    ...extra,
  });

/** Each endpoint's usual call; every endpoint has one (the last test checks). */
const SCENARIOS: Record<string, Scenario> = {
  '/ma/account/create': async () => ({ ...OWNER, email: uniqueEmail('sub'), enable_share_rc: 'true', enable_cmr: 'true' }),
  '/ma/account/list': async () => ({}),
  '/ma/account/get': async () => ({ account_id: await subAccount() }),
  '/ma/account/update': async () => ({ account_id: await subAccount(), pay_mode: 1 }),
  '/ma/account/delete': async () => ({ account_id: await subAccount() }),
  '/ma/account/plan/subscribe': async () => ({
    account_id: await subAccount(),
    ...CONTACT,
    plan_base: JSON.stringify({ type: 'monthly', hosts: 5 }),
  }),
  '/ma/account/plan/add': async () => ({ account_id: await subAccount(true), plan: '{"type":"large200_monthly","hosts":4}' }),
  '/ma/account/plan/get': async () => ({ account_id: await subAccount(true) }),
  '/ma/account/plan/update': async () => ({ account_id: await subAccount(true), type: 1, plan: '{"type":"yearly","hosts":3}' }),
  '/ma/account/billing/update': async () => ({ account_id: await subAccount(true), city: 'Shelbyville' }),

  '/user/create': userCreate(),
  '/user/autocreate': userCreate({ password: 'secret-pass-2' }),
  '/user/custcreate': userCreate(),
  '/user/ssocreate': async () => ({
    email: uniqueEmail('sso'),
    type: 1,
    first_name: 'S',
    last_name: 'O',
    group_id: await group('/groups'),
  }),
  '/user/list': async () => ({}),
  '/user/pending': async () => ({}),
  '/user/get': async () => ({ id: (await v2User(gw)).id }),
  '/user/getbyemail': async () => ({ email: (await v2User(gw)).email }),
  '/user/update': async () => ({
    id: (await v2User(gw)).id,
    first_name: 'Renamed',
    enable_large: 'true',
    large_capacity: 300,
    group_id: await group('/groups'),
    imgroup_id: await group('/im/groups'),
  }),
  '/user/updatepassword': async () => ({ id: (await v2User(gw)).id, password: 'new-pass-123' }),
  '/user/uploadpicture': async () => ({ id: (await v2User(gw)).id, pic_file: new File([JPEG_BYTES], 'me.jpg', { type: 'image/jpeg' }) }),
  '/user/activate': async () => ({ id: (await v2User(gw)).id }),
  '/user/deactivate': async () => ({ id: (await v2User(gw)).id }),
  '/user/delete': async () => ({ id: (await v2User(gw)).id }),
  '/user/permanentdelete': async () => ({ email: (await v2User(gw)).email }),
  '/user/revoketoken': async () => ({ id: (await v2User(gw)).id }),
  '/user/assistant/set': async () => ({ id: (await v2User(gw)).id, assistant_email: (await v2User(gw)).email }),
  '/user/assistant/delete': async () => ({ id: (await v2User(gw)).id }),
  '/user/scheduleforhost/list': async () => {
    const [host, assistant] = [await v2User(gw), await v2User(gw)];
    await v2Created('POST', `/users/${host.id}/assistants`, { assistants: [{ email: assistant.email }] });
    return { id: assistant.id };
  },
  '/user/checkemail': async () => ({ email: owner.email }),
  '/user/checkzpk': () => Promise.resolve({ zpk: 'a-zpk' }),

  '/meeting/create': async () => ({ host_id: owner.id, type: 2, topic: 'Planning', start_time: FUTURE, duration: 30 }),
  '/meeting/list': async () => (await createMeeting(gw), { host_id: owner.id }),
  '/meeting/live': async () => {
    const live = await v2Created('POST', `/users/${owner.id}/meetings`, { topic: 'On air' });
    await control(`/meetings/${live.id}/start`);
    return {};
  },
  '/meeting/get': ownSession('meeting'),
  '/meeting/update': async () => ({ ...(await ownSession('meeting')()), type: 2, topic: 'Moved' }),
  '/meeting/delete': ownSession('meeting'),
  '/meeting/end': ownSession('meeting'),
  '/webinar/create': async () => ({
    host_id: owner.id,
    type: 5,
    topic: 'Launch',
    start_time: FUTURE,
    panelists: JSON.stringify([
      { name: 'Pan One', email: uniqueEmail('panelist') },
      { name: 'Pan Two', email: uniqueEmail('panelist') },
    ]),
  }),
  '/webinar/list': async () => (await createWebinar(gw, { approval: 2 }), { host_id: owner.id }),
  '/webinar/list/registration': async () => (await createWebinar(gw, { approval: 0 }), { host_id: owner.id }),
  '/webinar/get': ownSession('webinar'),
  '/webinar/update': async () => ({ ...(await ownSession('webinar')()), topic: 'Renamed' }),
  '/webinar/delete': ownSession('webinar'),
  '/webinar/end': ownSession('webinar'),

  '/group/create': async () => ({ name: uniqueName() }),
  '/group/list': async () => ({}),
  '/group/get': async () => ({ id: await group('/groups') }),
  '/group/edit': async () => ({ id: await group('/groups'), name: uniqueName('renamed') }),
  '/group/delete': async () => ({ id: await group('/groups') }),
  '/group/member/list': async () => ({ id: await group('/groups', await userIds(2)) }),
  // 31 members: two v2 batches, so the members already there are read first and a failed batch is undone.
  '/group/member/add': async () => ({ id: await group('/groups'), member_ids: (await userIds(31)).join(',') }),
  '/group/member/delete': async () => {
    const members = await userIds(3);
    return { id: await group('/groups', members), member_ids: members.join(',') };
  },
  '/im/group/create': async () => ({ name: uniqueName() }),
  '/im/group/list': async () => ({}),
  '/im/group/get': async () => ({ id: await group('/im/groups') }),
  '/im/group/edit': async () => ({ id: await group('/im/groups'), name: uniqueName('renamed') }),
  '/im/group/delete': async () => ({ id: await group('/im/groups') }),
  '/im/group/member/list': async () => ({ id: await group('/im/groups', await userIds(2)) }),
  '/im/group/member/add': async () => ({ id: await group('/im/groups'), member_ids: (await userIds(31)).join(',') }),
  '/im/group/member/delete': async () => {
    const members = await userIds(3);
    return { id: await group('/im/groups', members), member_ids: members.join(',') };
  },

  '/recording/list': async () => (await recordedMeeting(), { host_id: owner.id, from: '2024-04-01', to: '2024-04-30' }),
  '/recording/get': async () => ({ meeting_id: (await recordedMeeting()).uuid }),
  '/recording/delete': async () => ({ meeting_id: (await recordedMeeting()).uuid }),
  '/mc/recording/list': async () => {
    const meeting = await recordedMeeting();
    await control(`/meetings/${meeting.id}/meeting-connector-recording`);
    return { host_id: owner.id };
  },

  '/meeting/register': async () => ({
    id: String((await createMeeting(gw)).id),
    email: uniqueEmail('guest'),
    first_name: 'G',
    last_name: 'U',
  }),
  '/webinar/register': async () => ({
    id: String((await createWebinar(gw)).id),
    email: uniqueEmail('guest'),
    first_name: 'G',
    last_name: 'U',
  }),
  '/webinar/registration': async () => {
    const webinar = await createWebinar(gw);
    await registerV2(gw, webinar.id, { email: uniqueEmail('guest') });
    return { id: String(webinar.id), host_id: owner.id };
  },
  '/webinar/registration/cancel': async () => {
    const webinar = await createWebinar(gw);
    const registrant = await registerV2(gw, webinar.id, { email: uniqueEmail('guest') });
    return { id: String(webinar.id), host_id: owner.id, registrant_ids: registrant };
  },
  '/webinar/registrants/list': async () => {
    const webinar = await createWebinar(gw, { approval: 1 });
    await registerV2(gw, webinar.id, { email: uniqueEmail('guest') });
    return { id: String(webinar.id), host_id: owner.id, type: 0 };
  },
  // 31 ids: more than one v2 batch, so every id is checked against the registrants first.
  '/webinar/registrants/approve': async () => {
    const webinar = await createWebinar(gw, { approval: 1 });
    const ids: string[] = [];
    for (let i = 0; i < 31; i++) ids.push(await registerV2(gw, webinar.id, { email: uniqueEmail('guest') }));
    return { id: String(webinar.id), host_id: owner.id, registrant_ids: ids.join(',') };
  },
  '/webinar/panelists': async () => {
    const webinar = await createWebinar(gw);
    await v2Created('POST', `/webinars/${webinar.id}/panelists`, { panelists: [{ name: 'Pan', email: uniqueEmail('panelist') }] });
    return { id: String(webinar.id), host_id: owner.id };
  },
  '/webinar/uuid/list': async () => ({ id: (await heldWebinar()).id, host_id: owner.id }),
  '/webinar/attendees/list': async () => {
    const held = await heldWebinar();
    return { id: held.id, host_id: owner.id, uuid: held.uuid };
  },
  '/webinar/polls': async () => ({ id: (await heldWebinar()).id, host_id: owner.id }),
  '/webinar/questions': async () => ({ id: (await heldWebinar()).id, host_id: owner.id }),

  '/report/getdailyreport': async () => ({ year: 2024, month: 5 }),
  '/report/getaccountreport': async () => (await meetingHappened(gw, owner.id, '2024-05-02T10:00:00Z', [{ name: 'Ann' }]), MAY),
  '/report/getuserreport': async () => {
    await meetingHappened(gw, owner.id, '2024-05-03T10:00:00Z', [{ name: 'Ann' }]);
    return { user_id: owner.id, ...MAY };
  },
  '/report/getaudioreport': async () => {
    const meeting = await meetingHappened(gw, owner.id, '2024-05-04T10:00:00Z', [{ name: 'Ann' }]);
    const leg = {
      direction: 'call-in',
      phone_number: '+15550100',
      call_in_number: '+1 669 900 6833',
      start_time: '2024-05-04T10:05:00Z',
      end_time: '2024-05-04T10:10:00Z',
      total: 1,
    };
    await control(`/meetings/${meeting.id}/phone-legs`, leg);
    return MAY;
  },

  '/h323/device/list': async () => ({}),
  '/h323/device/create': async () => ({ name: 'Board room', ip: '192.168.1.10' }),
  '/h323/device/update': async () => ({ id: (await v2Created('POST', '/h323/devices', h323Device())).id, name: 'Renamed' }),
  '/h323/device/delete': async () => ({ id: (await v2Created('POST', '/h323/devices', h323Device())).id }),

  '/metrics/meetings': async () => (await meetingHappened(gw, owner.id, '2024-05-05T10:00:00Z', [{ name: 'Ann' }]), { type: 2, ...MAY }),
  '/metrics/webinars': async () => (await heldWebinar(), { type: 1 }),
  '/metrics/meetingdetail': async () => ({
    meeting_id: (await meetingHappened(gw, owner.id, '2024-05-06T10:00:00Z', [{ name: 'Ann' }])).uuid,
    type: 2,
  }),
  '/metrics/webinardetail': async () => ({ meeting_id: (await heldWebinar()).uuid, type: 2 }),
  '/metrics/qos': async () => ({
    meeting_id: (await meetingHappened(gw, owner.id, '2024-05-07T10:00:00Z', [{ name: 'Ann' }])).uuid,
    type: 2,
  }),
  '/metrics/zoomrooms': async () => (await control(`/accounts/${accountId}/zoom-rooms`, { room_name: uniqueName('room') }), {}),
  '/metrics/zoomroomdetail': async () => {
    const room = await control(`/accounts/${accountId}/zoom-rooms`, { room_name: uniqueName('room') });
    const meeting = await meetingHappened(gw, owner.id, '2024-05-08T10:00:00Z');
    await control(`/zoom-rooms/${room.id}/meetings`, { meeting_id: meeting.id });
    return { id: room.id, ...MAY };
  },
  '/metrics/crc': async () => (
    await control(`/accounts/${accountId}/crc-usage`, { date: '2024-05-03', hour: 9, max_usage: 2, total_usage: 5 }),
    MAY
  ),
  '/metrics/im': async () => (
    await control(`/accounts/${accountId}/im-activity`, { user: owner.id, date: '2024-05-05', counts: { total_send: 1 } }),
    MAY
  ),

  '/chat/list': async () => (await chatSession(), { from: '2019-03-01', to: '2019-03-31' }),
  '/chat/get': async () => ({ session_id: (await chatSession()).session_id, from: '2019-03-01', to: '2019-03-31' }),
};

/** More calls of some endpoints: the branches their usual call does not take. */
const VARIANTS: Record<string, Scenario[]> = {
  // Options and settings both: the options are read first, and put back when the settings fail.
  '/ma/account/update': [async () => ({ account_id: await subAccount(), pay_mode: 1, enable_enforce_login: 'true' })],
  '/ma/account/plan/update': [
    async () => {
      const account_id = await subAccount(true);
      await v2Created('POST', `/accounts/${account_id}/plans/addons`, { type: 'large200_monthly', hosts: 4 });
      return { account_id, type: 2, plan: '{"type":"large200_monthly","hosts":6}' };
    },
  ],
  '/user/ssocreate': [async () => ({ email: uniqueEmail('sso'), type: 1, pmi: 5550001234, imgroup_id: await group('/im/groups') })],
  // An IM group's id: plain groups answer "no such group", and the IM groups are tried next.
  '/group/member/add': [async () => ({ id: await group('/im/groups'), member_ids: (await userIds(31)).join(',') })],
  '/recording/delete': [
    async () => {
      const meeting = await recordedMeeting();
      const files = (await gw.v2('GET', `/meetings/${meeting.id}/recordings`)).body.recording_files as { id: string }[];
      return { meeting_id: meeting.uuid, file_id: files[0]!.id };
    },
  ],
  '/metrics/qos': [
    async () => {
      const meeting = await meetingHappened(gw, owner.id, '2024-05-09T10:00:00Z', [{ name: 'Ann' }]);
      const page = (await gw.v2('GET', `/metrics/meetings/${meeting.id}/participants`, { query: { type: 'past' } })).body;
      return { meeting_id: String(meeting.id), type: 2, user_id: page.participants[0].id };
    },
  ],
};

function h323Device() {
  return { name: uniqueName('device'), ip: '10.0.0.7', protocol: 'H.323', encryption: 'auto' };
}
function chatSession(): Promise<{ session_id: string }> {
  return control(`/accounts/${accountId}/chat-sessions`, {
    type: 'Group',
    name: 'Support',
    messages: [{ message: 'hello', sender: owner.email, date_time: '2019-03-04T10:00:00Z' }],
  });
}

/** Endpoints that answer without v2, and why: each declares no route and makes no v2 call. */
const WITHOUT_V2: Record<string, string> = {
  '/user/checkzpk': 'refused: the ZPK is retired and v2 has nothing to check it against (docs/decisions.md)',
};

/**
 * Declared reads an endpoint's drives may all find answered by the key's memo (src/v1-steps/key-memo.ts),
 * once another drive of the same key made them: never "declared in vain".
 */
const MEMO_SERVED: Record<string, (path: string) => boolean> = {
  // The caller's account id, a fact of the key (groups/group-output.ts), read by the first group call only.
  'GET /users/{userId}': (path) => /^(\/im)?\/group\//.test(path),
  // The host's live meetings, kept briefly per key (sessions/status.ts): the host check's read already made it.
  'GET /users/{userId}/meetings': (path) => path === '/meeting/get',
};

const writes = (endpoint: EndpointDefinition) => endpoint.v2Calls.some((route) => !route.reads);
const takesHost = (endpoint: EndpointDefinition) => 'host_id' in ((endpoint.params as unknown as { shape?: object }).shape ?? {});

/** Drive one call; answers the number of writes it made while a write was set to fail (0: not armed). */
async function drive(path: string, scenario: Scenario, failWrite = 0, change: (params: Params) => Params = (p) => p) {
  const params = change(await scenario());
  faults.failWrite = failWrite;
  faults.writes = 0;
  try {
    return { answer: await send(path, params), writes: faults.writes };
  } finally {
    faults.failWrite = 0;
  }
}

/** Drive the usual call, and answer with it how many v2 calls it made as the facade counted them. */
async function driveCounted(path: string, scenario: Scenario) {
  const params = await scenario();
  const before = perCall.length;
  const answer = await send(path, params);
  const own = perCall.slice(before).filter((call) => call.endpoint === canonicalPath(path));
  expect(own).toHaveLength(1);
  return { answer, calls: own[0]!.routes.length, routes: own[0]!.routes };
}

describe('every v2 call an endpoint makes is one it declares', () => {
  it.each(ALL_ENDPOINTS.map((endpoint) => [endpoint.path, endpoint] as const))('%s', async (path, endpoint) => {
    expect(SCENARIOS[path], `no scenario drives ${path}`).toBeDefined();
    if (path in WITHOUT_V2) {
      expect(endpoint.v2Calls).toEqual([]);
      expect((await driveCounted(path, SCENARIOS[path]!)).calls).toBe(0);
      return;
    }
    for (const scenario of [SCENARIOS[path]!, ...(VARIANTS[path] ?? [])]) {
      const { answer, calls, routes } = await driveCounted(path, scenario);
      expect(answer.error, JSON.stringify(answer)).toBeUndefined();
      // The usual call makes no more v2 calls than docs/coverage.md declares, and no fewer.
      const count = callCountOf(canonicalPath(path), endpoint);
      expect(calls, `${path} made ${calls} v2 calls (${routes.join(', ')}); declared min ${count.min}`).toBeGreaterThanOrEqual(count.min);
      if (typeof count.max === 'number')
        expect(calls, `${path} made ${calls} v2 calls (${routes.join(', ')}); declared max ${count.max}`).toBeLessThanOrEqual(count.max);
      // The host named by email: the host check looks the user up.
      if (takesHost(endpoint)) await drive(path, scenario, 0, (params) => ({ ...params, host_id: owner.email }));
      // Each write failing in turn: what was written before it is undone.
      if (writes(endpoint)) for (let n = 1; (await drive(path, scenario, n)).writes >= n; n++);
    }

    const calls = made.get(canonicalPath(path)) ?? [];
    expect(calls.length).toBeGreaterThan(0);
    const declared = new Set(endpoint.v2Calls.map((route) => route.name));
    const undo = new Set((endpoint.v2Undo ?? []).map((route) => route.name));
    const undeclared = calls.filter((call) => !(call.undo ? undo : declared).has(call.route.name));
    expect(undeclared.map((call) => `${call.undo ? 'undo ' : ''}${call.route.name} (${call.method} ${call.path})`)).toEqual([]);
    const madeNames = (asUndo: boolean) => new Set(calls.filter((call) => call.undo === asUndo).map((call) => call.route.name));
    const inVain = [...declared].filter((name) => !madeNames(false).has(name) && !MEMO_SERVED[name]?.(path));
    expect(inVain, 'declared, never called').toEqual([]);
    expect(
      [...undo].filter((name) => !madeNames(true).has(name)),
      'declared as undo, never undone with',
    ).toEqual([]);
  });

  it('drives every endpoint, and no scenario is left over', () => {
    expect(Object.keys(SCENARIOS).sort()).toEqual(ALL_ENDPOINTS.map((endpoint) => endpoint.path).sort());
  });
});

describe('the way-out recipe of every drive', () => {
  it("plans every endpoint, and each step a recorded call made is one the endpoint's recipe names", () => {
    const recipe = makeRecipe(recorded, ALL_ENDPOINTS, { plan: 'pro', now: new Date(0) });
    expect(recipe.integrations).toHaveLength(1);
    const endpoints = recipe.integrations[0]!.endpoints;
    expect(endpoints.map((e) => e.path).sort()).toEqual(ALL_ENDPOINTS.map((e) => canonicalPath(e.path)).sort());
    for (const endpoint of endpoints) {
      const steps = new Set(endpoint.declared!.steps.map((s) => s.route));
      const undo = new Set(endpoint.declared!.undo.map((s) => s.route));
      const strays = endpoint.sequences
        .flatMap((sequence) => sequence.steps)
        .filter((step) => (step.startsWith('undo: ') ? !undo.has(step.slice(6)) : !steps.has(step)));
      expect(strays, endpoint.path).toEqual([]);
    }
  });
});
