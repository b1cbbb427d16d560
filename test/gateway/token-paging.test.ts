import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_WALK_PAGES } from '../../src/translators/kit/token-walk.js';
import type { CallObserver } from '../../src/v1-steps/observe.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { FUTURE, NO_LIMITS, uniqueEmail } from '../support/v1-answers.js';
import { createUsers, uniqueName } from './groups-support.js';
import { createWebinar, registerV2 } from './registration-support.js';
import { meetingHappened } from './reports-support.js';

/**
 * Every v1 list v1gate pages by number, over a v2 that pages by token only: the sandbox ignores
 * `page_number`, leaves `page_count` and `page_number` out, and serves pages of at most 2
 * (PUT /sandbox/paging). Each list holds 7 items: v1 pages of 2 make 4 pages. A v1 client
 * reads page 4 cold, then every page in order: each answers its items, v1's page_count and
 * total_records; the pages together hold every item once. The v2 list calls are counted per
 * v1 call: page 4 cold follows the chain (4 calls), page N+1 after page N costs one (the lists
 * read from their start in v2's largest pages cost the pages up to N).
 */

const PAGE = 2;
const ITEMS = 7;
const PAGES = Math.ceil(ITEMS / PAGE);

/** The v2 routes each v1 call sent, in the order the calls were answered. */
const calls: { endpoint: string; routes: string[] }[] = [];
const observer: CallObserver = (record) => {
  if (record.endpoint !== undefined) calls.push({ endpoint: record.endpoint, routes: record.v2Calls.map((call) => call.route.name) });
};

let gw: TestGateway;
let ownerId: string;
beforeAll(async () => {
  // The aux cache off: a list's side reads (the host's live meetings) are then made at each call.
  gw = await startTestGateway({ ...NO_LIMITS, AUX_CACHE_TTL_MS: '0' }, { observers: [observer] });
  ownerId = (await gw.v2('GET', '/users/me')).body.id;
  const mode = await gw.control('PUT', '/paging', { token_only: true, max_page_size: PAGE });
  expect(mode.body).toEqual({ token_only: true, max_page_size: PAGE });
});
afterAll(() => gw?.close());

async function created(method: string, path: string, body: unknown): Promise<any> {
  const answer = await gw.v2(method, path, { body });
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  return answer.body;
}

interface ListCase {
  /** Makes a list of ITEMS items of its own; answers the v1 params that name it. */
  seed(): Promise<Record<string, string>>;
  /** The v2 route that pages the list, as calls are named (`GET /users`). */
  route: string;
  /** Where the v1 answer holds the items. */
  key: string;
  /** How many items the list holds, where more than the ITEMS seeded (the account's users). */
  total?: () => Promise<number>;
  /** Where the answer says how many items the list holds, if not `total_records` (a dashboard session's `participants_count`). */
  totalKey?: string;
  /** Calls to the same route that read something else (the host's live meetings, `type=live`). */
  beside?: number;
  /**
   * A list read in v2 pages of the largest size from its start (the metrics lists: v2's report
   * class, as few calls as possible when pages are large): page n costs n of the sandbox's small
   * pages, not one.
   */
  fromStart?: true;
  /** A list v2 cannot filter as v1 does, read whole at each call (each page of it once) and paged by v1gate. */
  whole?: true;
}

/** ITEMS webinars of a new host, with registration (approval 0) or without (2). */
async function webinarsOfNewHost(approval: 0 | 2): Promise<Record<string, string>> {
  const [host] = await createUsers(gw, 1);
  for (let i = 0; i < ITEMS; i++) await createWebinar(gw, { approval, host: host!.id });
  return { host_id: host!.id };
}

/** A new host with ITEMS recorded meetings, each a day apart in May 2024 (cloud recordings, or `mc`: on-premise). */
async function recordedHost(mc: boolean): Promise<string> {
  const [host] = await createUsers(gw, 1);
  for (let i = 0; i < ITEMS; i++) {
    const start_time = `2024-05-0${i + 1}T08:00:00Z`;
    const meeting = await created('POST', `/users/${host!.id}/meetings`, { topic: `recorded ${i}`, type: 2, start_time, duration: 30 });
    const recording = { files: [{ file_type: 'MP4', file_size: 1024 }] };
    const happened = await gw.control('POST', `/meetings/${meeting.id}/happen`, { start_time, duration_minutes: 30, recording });
    expect(happened.status, JSON.stringify(happened.body)).toBe(201);
    if (mc) expect((await gw.control('POST', `/meetings/${meeting.id}/meeting-connector-recording`, {})).status).toBe(200);
  }
  return host!.id;
}

const usersOf = async (status: string) => (await gw.v2('GET', '/users', { query: { status, page_size: 1 } })).body.total_records as number;

const CASES: Record<string, ListCase> = {
  '/user/list': {
    seed: async () => (await createUsers(gw, ITEMS), {}),
    route: 'GET /users',
    key: 'users',
    total: () => usersOf('active'),
  },
  '/user/pending': {
    seed: async () => {
      for (let i = 0; i < ITEMS; i++) {
        const user_info = { email: uniqueEmail('pending'), type: 1, first_name: 'Pen', last_name: 'Ding' };
        await created('POST', '/users', { action: 'create', user_info });
      }
      return {};
    },
    route: 'GET /users',
    key: 'users',
    total: () => usersOf('pending'),
  },
  '/group/member/list': {
    seed: async () => {
      const { id } = await created('POST', '/groups', { name: uniqueName() });
      const members = await createUsers(gw, ITEMS);
      await created('POST', `/groups/${id}/members`, { members: members.map((m) => ({ id: m.id })) });
      return { id };
    },
    route: 'GET /groups/{groupId}/members',
    key: 'members',
  },
  '/im/group/member/list': {
    seed: async () => {
      const { id } = await created('POST', '/im/groups', { name: uniqueName() });
      const members = await createUsers(gw, ITEMS);
      await created('POST', `/im/groups/${id}/members`, { members: members.map((m) => ({ id: m.id })) });
      return { id };
    },
    route: 'GET /im/groups/{groupId}/members',
    key: 'members',
  },
  '/h323/device/list': {
    seed: async () => {
      for (let i = 0; i < ITEMS; i++) {
        await created('POST', '/h323/devices', { name: `room ${i}`, protocol: 'H.323', ip: `10.0.1.${i + 1}`, encryption: 'auto' });
      }
      return {};
    },
    route: 'GET /h323/devices',
    key: 'devices',
  },
  '/meeting/list': {
    seed: async () => {
      const [host] = await createUsers(gw, 1);
      for (let i = 0; i < ITEMS; i++)
        await created('POST', `/users/${host!.id}/meetings`, { topic: `paged ${i}`, type: 2, start_time: FUTURE });
      return { host_id: host!.id };
    },
    route: 'GET /users/{userId}/meetings',
    key: 'meetings',
    beside: 1,
  },
  '/ma/account/list': {
    seed: async () => {
      for (let i = 0; i < ITEMS; i++) {
        await created('POST', '/accounts', { first_name: 'Sub', last_name: 'Owner', password: 'secret-pass-1', email: uniqueEmail('sub') });
      }
      return {};
    },
    route: 'GET /accounts',
    key: 'subAccounts',
    total: async () => (await gw.v2('GET', '/accounts', { query: { page_size: 1 } })).body.total_records as number,
  },
  '/meeting/live': {
    seed: async () => {
      for (let i = 0; i < ITEMS; i++) {
        const meeting = await created('POST', '/users/me/meetings', { topic: `live ${i}`, type: 2, start_time: FUTURE });
        expect((await gw.control('POST', `/meetings/${meeting.id}/start`, {})).status).toBe(201);
      }
      return {};
    },
    route: 'GET /metrics/meetings',
    key: 'meetings',
    fromStart: true,
  },
  '/webinar/list': { seed: () => webinarsOfNewHost(2), route: 'GET /users/{userId}/webinars', key: 'webinars', whole: true },
  '/webinar/list/registration': { seed: () => webinarsOfNewHost(0), route: 'GET /users/{userId}/webinars', key: 'webinars', whole: true },
  // v2 lists one status a call: the approved registrants' 4 pages, and one (empty) page each of pending and denied, at every call.
  '/webinar/registration': {
    seed: async () => {
      const webinar = await createWebinar(gw, { approval: 0 });
      for (let i = 0; i < ITEMS; i++) await registerV2(gw, webinar.id, { email: uniqueEmail('whole') });
      return { id: String(webinar.id), host_id: ownerId };
    },
    route: 'GET /webinars/{webinarId}/registrants',
    key: 'attendees',
    whole: true,
    beside: 2,
  },
  '/report/getaudioreport': {
    seed: async () => {
      const meeting = await meetingHappened(gw, ownerId, '2024-01-12T02:00:00Z', [], 60);
      for (let i = 0; i < ITEMS; i++) {
        const leg = {
          direction: 'call-out',
          phone_number: '+86 8208',
          start_time: `2024-01-12T02:0${i}:00Z`,
          end_time: `2024-01-12T02:0${i}:30Z`,
          total: 0.1,
        };
        expect((await gw.control('POST', `/meetings/${meeting.id}/phone-legs`, leg)).status).toBe(201);
      }
      return { from: '2024-01-01', to: '2024-01-31' };
    },
    route: 'GET /report/telephone',
    key: 'telephony_usage',
  },
  '/report/getaccountreport': {
    seed: async () => {
      const hosts = await createUsers(gw, ITEMS);
      for (const [i, host] of hosts.entries()) await meetingHappened(gw, host.id, `2024-03-0${i + 1}T10:00:00Z`);
      return { from: '2024-03-01', to: '2024-03-31' };
    },
    route: 'GET /report/users',
    key: 'users',
  },
  '/report/getuserreport': {
    seed: async () => {
      const [host] = await createUsers(gw, 1);
      for (let i = 0; i < ITEMS; i++) await meetingHappened(gw, host!.id, `2024-04-0${i + 1}T10:00:00Z`);
      return { user_id: host!.id, from: '2024-04-01', to: '2024-04-30' };
    },
    route: 'GET /report/users/{userId}/meetings',
    key: 'meetings',
    fromStart: true,
  },
  '/recording/list': {
    seed: async () => ({ host_id: await recordedHost(false) }),
    route: 'GET /users/{userId}/recordings',
    key: 'meetings',
    fromStart: true,
  },
  '/mc/recording/list': {
    seed: async () => ({ host_id: await recordedHost(true) }),
    route: 'GET /users/{userId}/recordings',
    key: 'meetings',
    fromStart: true,
  },
  '/metrics/meetings': {
    seed: async () => {
      const [host] = await createUsers(gw, 1);
      for (let i = 0; i < ITEMS; i++) await meetingHappened(gw, host!.id, `2024-07-0${i + 1}T10:00:00Z`);
      return { type: '2', from: '2024-07-01', to: '2024-07-31' };
    },
    route: 'GET /metrics/meetings',
    key: 'meetings',
    fromStart: true,
  },
  '/metrics/webinars': {
    seed: async () => {
      const [host] = await createUsers(gw, 1);
      for (let i = 0; i < ITEMS; i++) {
        const webinar = await createWebinar(gw, { approval: 2, host: host!.id });
        const happened = await gw.control('POST', `/meetings/${webinar.id}/happen`, {
          start_time: `2024-09-0${i + 1}T10:00:00Z`,
          duration_minutes: 30,
        });
        expect(happened.status, JSON.stringify(happened.body)).toBe(201);
      }
      return { type: '2', from: '2024-09-01', to: '2024-09-30' };
    },
    route: 'GET /metrics/webinars',
    key: 'meetings',
    fromStart: true,
  },
  '/metrics/meetingdetail': {
    seed: async () => {
      const [host] = await createUsers(gw, 1);
      const people = Array.from({ length: ITEMS }, (_, i) => ({ name: `Guest ${i}`, email: uniqueEmail('guest') }));
      const held = await meetingHappened(gw, host!.id, '2024-08-01T10:00:00Z', people);
      return { meeting_id: held.uuid, type: '2' };
    },
    route: 'GET /metrics/meetings/{meetingId}/participants',
    key: 'participants',
    totalKey: 'participants_count',
    total: async () => ITEMS + 1, // the host is one of the session's participants
    fromStart: true,
  },
  '/metrics/webinardetail': {
    seed: async () => {
      const webinar = await createWebinar(gw, { approval: 2 });
      const participants = Array.from({ length: ITEMS }, (_, i) => ({ name: `Attendee ${i}`, email: uniqueEmail('attendee') }));
      const happened = await gw.control('POST', `/meetings/${webinar.id}/happen`, {
        start_time: '2024-08-02T10:00:00Z',
        duration_minutes: 30,
        participants,
      });
      expect(happened.status, JSON.stringify(happened.body)).toBe(201);
      return { meeting_id: happened.body.uuid as string, type: '2' };
    },
    route: 'GET /metrics/webinars/{webinarId}/participants',
    key: 'participants',
    totalKey: 'participants_count',
    total: async () => ITEMS + 1, // the host is one of the session's participants
    fromStart: true,
  },
  '/metrics/zoomroomdetail': {
    seed: async () => {
      const accountId = gw.sandbox.state.accountsByKey.get(gw.credentials.api_key)!.id;
      const room = await gw.control('POST', `/accounts/${accountId}/zoom-rooms`, { room_name: 'Paged room' });
      expect(room.status, JSON.stringify(room.body)).toBe(201);
      for (let i = 0; i < ITEMS; i++) {
        const held = await meetingHappened(gw, ownerId, `2024-10-0${i + 1}T10:00:00Z`);
        expect((await gw.control('POST', `/zoom-rooms/${room.body.id}/meetings`, { meeting_id: held.id })).status).toBe(200);
      }
      return { id: room.body.id as string, from: '2024-10-01', to: '2024-10-31' };
    },
    route: 'GET /metrics/zoomrooms/{zoomroomId}',
    key: 'past_meetings',
    fromStart: true,
  },
  '/webinar/registrants/list': {
    seed: async () => {
      const webinar = await createWebinar(gw, { approval: 1 });
      for (let i = 0; i < ITEMS; i++) await registerV2(gw, webinar.id, { email: uniqueEmail('guest') });
      return { id: String(webinar.id), host_id: ownerId, type: '0' };
    },
    route: 'GET /webinars/{webinarId}/registrants',
    key: 'users',
  },
};

/** One v1 page: the answer, and how many v2 calls it made in all (x-v2-calls) and to the list's route. */
async function page(path: string, params: Record<string, string>, n: number, size = PAGE) {
  const before = calls.length;
  const reply = await gw.v1Raw(path, { ...params, page_size: String(size), page_number: String(n) });
  await expect.poll(() => calls.length).toBeGreaterThan(before);
  const made = calls.at(-1)!;
  expect(Number(reply.headers.get('x-v2-calls'))).toBe(made.routes.length);
  return { body: reply.body, routes: made.routes };
}

/** v1's page `n` over `total` records: the paging fields, and the items that fall on it. */
function expectPage(body: Record<string, any>, key: string, n: number, total: number, totalKey = 'total_records'): void {
  expect(body.error, JSON.stringify(body.error)).toBeUndefined();
  expect(body[totalKey]).toBe(total);
  expect(body.page_count).toBe(Math.ceil(total / PAGE));
  expect(body.page_number).toBe(n);
  expect(body.page_size).toBe(PAGE);
  expect(body[key]).toHaveLength(Math.max(0, Math.min(PAGE, total - (n - 1) * PAGE)));
}

const idOf = (item: Record<string, any>) => String(item.id ?? item.email ?? item.user_name ?? item.start_time);

describe('v1 page N over v2 lists that page by token only', () => {
  for (const [path, list] of Object.entries(CASES)) {
    it(`${path}: page 4 cold, then every page in order, the v2 list calls counted`, async () => {
      const params = await list.seed();
      const total = list.total ? await list.total() : ITEMS;
      const pages = Math.ceil(total / PAGE);
      expect(pages).toBeGreaterThan(3);
      const listCalls = (routes: string[]) => routes.filter((r) => r === list.route).length - (list.beside ?? 0);
      // The tokens of the whole list are not yet known: page 4 follows the chain from the first page.
      const cold = await page(path, params, PAGES);
      expectPage(cold.body, list.key, PAGES, total, list.totalKey);
      expect(listCalls(cold.routes)).toBe(PAGES);
      const cost = (n: number) => (list.whole ? pages : list.fromStart ? Math.min(n, pages) : 1);

      const seen: string[] = [];
      for (let n = 1; n <= pages; n++) {
        const read = await page(path, params, n);
        expectPage(read.body, list.key, n, total, list.totalKey);
        // Page 1 needs no token; every later one is the token kept when the page before was read.
        expect(listCalls(read.routes)).toBe(cost(n));
        seen.push(...(read.body[list.key] as Record<string, any>[]).map(idOf));
      }
      expect(new Set(seen).size).toBe(total);
      expect(seen).toHaveLength(total);
      // Page 4 again: its token is kept, one call.
      const again = await page(path, params, PAGES);
      // The same items (by id: a recording's download links are made for each answer).
      expect((again.body[list.key] as Record<string, any>[]).map(idOf)).toEqual((cold.body[list.key] as Record<string, any>[]).map(idOf));
      expect(listCalls(again.routes)).toBe(cost(PAGES));
    });
  }
});

describe('the walk is bounded', () => {
  it(`refuses a page more than ${MAX_WALK_PAGES} v2 pages into the chain after one v2 call, and answers a page past the end empty`, async () => {
    for (let i = 0; i < MAX_WALK_PAGES; i++) {
      await created('POST', '/h323/devices', { name: `far ${i}`, protocol: 'SIP', ip: `10.0.2.${i + 1}`, encryption: 'auto' });
    }
    const params = {};
    const total = (await gw.v2('GET', '/h323/devices', { query: { page_size: 300 } })).body.total_records as number;
    // Pages of 1 (a chain no earlier call has walked): page MAX+1 is MAX+1 pages in.
    expect(total).toBeGreaterThan(MAX_WALK_PAGES);
    const before = calls.length;
    const far = await gw.v1Raw('/h323/device/list', { ...params, page_size: '1', page_number: String(MAX_WALK_PAGES + 1) });
    await expect.poll(() => calls.length).toBeGreaterThan(before);
    expect(far.body.error.code).toBe(300);
    expect(far.body.error.message).toMatch(/^Invalid parameter: page_number\. /);
    expect(calls.at(-1)!.routes).toEqual(['GET /h323/devices']);

    // Past the list's end: the first page says how long the list is; nothing more is read.
    const past = await page('/h323/device/list', params, 10_000, 1);
    expect(past.body.devices).toEqual([]);
    expect(past.body.total_records).toBe(total);
    expect(past.routes).toEqual(['GET /h323/devices']);
  });
});
