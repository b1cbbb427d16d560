import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_TEXTS, type ErrorTextId } from '../../mappings/error-texts.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { httpRequest, rawExchange } from '../support/raw-http.js';
import { uniqueEmail } from '../support/v1-answers.js';

/**
 * Every v1 error text of the evidence table (`ERROR_TEXTS`, rendered in docs/live-evidence.md)
 * comes from a real call here: each case makes the call that ends in its row's error over the real
 * sandbox and names the values its `<placeholders>` stand for; the answer's code and message must
 * be the row's. The record is keyed by every row the file can bring about, so a new row without a
 * case does not compile; the rows it cannot (`notDrivenHere`) name the test that drives them.
 */

type NotDriven = { [K in ErrorTextId]: (typeof ERROR_TEXTS)[K] extends { notDrivenHere: string } ? K : never }[ErrorTextId];

/** The v1 error a call answered, and the values of the row's placeholders in order (`undefined`: whatever v1gate states). */
interface Outcome {
  error: unknown;
  values: (string | undefined)[];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The row's text as a pattern: each placeholder the value given, or any text where v1gate states its own reason. */
function pattern(text: string, values: (string | undefined)[]): RegExp {
  const parts = text.split(/<[^>]+>/);
  expect(values, `"${text}" has ${parts.length - 1} placeholders`).toHaveLength(parts.length - 1);
  const filled = values.map((value) => (value === undefined ? '.+' : escape(value)));
  const source = parts.map((part, i) => escape(part) + (filled[i] ?? '')).join('');
  return new RegExp(`^${source}$`, 's');
}

let gw: TestGateway;
/** An allow-list that names no real key, and small bodies. */
let guarded: TestGateway;
/** v1's inbound limits on. */
let limited: TestGateway;
let ownerId: string;

beforeAll(async () => {
  [gw, guarded, limited] = await Promise.all([
    startTestGateway(),
    startTestGateway({ ALLOWED_API_KEYS: 'only-this-key', V1_MAX_BODY_BYTES: '2048' }),
    startTestGateway({ V1_RATE_LIMITS: 'on' }),
  ]);
  ownerId = (await gw.v2('GET', '/users/me')).body.id as string;
});
afterAll(() => Promise.all([gw.close(), guarded.close(), limited.close()]));

async function v1Error(answer: Promise<any>): Promise<unknown> {
  return (await answer).error;
}

/** A POST of `body` as it is, form-encoded, with the gateway's credentials in the query. */
async function rawForm(path: string, body: string): Promise<unknown> {
  const query = new URLSearchParams(gw.credentials).toString();
  const response = await fetch(`${gw.url}/v1${path}?${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  return ((await response.json()) as { error: unknown }).error;
}

/** The v1 error of the one answer to `bytes` sent as they are. */
async function rawError(bytes: Buffer | string): Promise<unknown> {
  const reply = await rawExchange(gw.port, bytes);
  expect(reply.responses).toHaveLength(1);
  return (JSON.parse(reply.responses[0]!.body) as { error: unknown }).error;
}

async function newUser(): Promise<string> {
  const created = await gw.v1('/user/custcreate', { email: uniqueEmail('texts'), type: 1 });
  expect(created.error).toBeUndefined();
  return created.id as string;
}

/** A meeting of the account's owner that took place, with a recording or without. */
async function happenedMeeting(recording: boolean): Promise<string> {
  const created = await gw.v2('POST', `/users/${ownerId}/meetings`, {
    body: { topic: 'recorded?', type: 2, start_time: '2024-05-01T08:00:00Z' },
  });
  expect(created.status).toBe(201);
  const happened = await gw.control('POST', `/meetings/${created.body.id}/happen`, { duration_minutes: 30, recording });
  expect(happened.status, JSON.stringify(happened.body)).toBe(201);
  return String(created.body.id);
}

const CASES: Record<Exclude<ErrorTextId, NotDriven>, () => Promise<Outcome>> = {
  'missing-credentials': async () => ({
    error: await v1Error(gw.v1('/user/list', { api_key: gw.credentials.api_key }, { noCredentials: true })),
    values: [],
  }),
  'key-not-allowed': async () => ({ error: await v1Error(guarded.v1('/user/list')), values: [] }),
  'pair-refused': async () => ({ error: await v1Error(gw.v1('/user/list', { api_secret: 'not-the-secret' })), values: [] }),
  'bad-data-type': async () => ({ error: await v1Error(gw.v1('/user/list', { data_type: 'YAML' })), values: [] }),
  'invalid-parameter': async () => ({
    error: await v1Error(gw.v1('/user/list', { page_size: 'many' })),
    values: ['page_size', undefined],
  }),
  'missing-parameter': async () => ({ error: await v1Error(gw.v1('/meeting/get', { host_id: ownerId })), values: ['id'] }),
  'dot-segment-value': async () => ({ error: await v1Error(gw.v1('/group/get', { id: '..' })), values: ['id', '..'] }),
  'not-a-post': async () => {
    const response = await fetch(`${gw.url}/v1/user/list`);
    return { error: ((await response.json()) as { error: unknown }).error, values: ['GET'] };
  },
  'unknown-path': async () => ({ error: await v1Error(gw.v1('/user/levitate')), values: [undefined] }),
  'dot-segment-path': async () => ({
    error: await rawError(httpRequest({ path: '/v1/user/../user/list', headers: { connection: 'close' } })),
    values: [],
  }),
  'malformed-request': async () => ({ error: await rawError('GARBAGE\r\n\r\n'), values: ['HPE_INVALID_METHOD'] }),
  'malformed-target': async () => ({
    error: await rawError(httpRequest({ path: '*', headers: { connection: 'close' } })),
    values: [undefined],
  }),
  'undecodable-params': async () => ({ error: await rawForm('/user/get', 'id=%ZZ'), values: ['id', 'ZZ'] }),
  'unreadable-body': async () => ({
    error: await v1Error(guarded.v1('/user/list', { padding: 'x'.repeat(4096) })),
    values: ['2048'],
  }),
  'rate-limited': async () => {
    // v1's list class admits a key's first calls and refuses the next; the bound only ends the loop.
    for (let i = 0; i < 50; i++) {
      const answer = await limited.v1('/user/list');
      if (answer.error) return { error: answer.error, values: [] };
    }
    throw new Error('50 back-to-back user/list calls of one key were all admitted');
  },
  'user-not-exist': async () => ({ error: await v1Error(gw.v1('/user/get', { id: 'nobody-here' })), values: ['nobody-here'] }),
  'user-not-pending': async () => {
    const id = await newUser();
    return { error: await v1Error(gw.v1('/user/delete', { id, type: 1 })), values: [id] };
  },
  'user-already-exists': async () => {
    const email = uniqueEmail('taken');
    expect((await gw.v1('/user/custcreate', { email, type: 1 })).error).toBeUndefined();
    return { error: await v1Error(gw.v1('/user/custcreate', { email, type: 1 })), values: [email] };
  },
  'meeting-not-exist': async () => ({
    error: await v1Error(gw.v1('/meeting/get', { id: '98399082887', host_id: ownerId })),
    values: ['98399082887'],
  }),
  'webinar-not-exist': async () => ({
    error: await v1Error(gw.v1('/webinar/get', { id: '98399082888', host_id: ownerId })),
    values: ['98399082888'],
  }),
  'not-meeting-host': async () => {
    const meeting = await gw.v1('/meeting/create', { host_id: ownerId, topic: 'whose', type: 2 });
    expect(meeting.error).toBeUndefined();
    const other = await newUser();
    return { error: await v1Error(gw.v1('/meeting/get', { id: meeting.id, host_id: other })), values: [String(meeting.id), other] };
  },
  'group-not-exist': async () => ({ error: await v1Error(gw.v1('/group/get', { id: 'no-such-group' })), values: ['no-such-group'] }),
  'group-name-taken': async () => {
    const name = `texts ${Date.now()}`;
    expect((await gw.v1('/group/create', { name })).error).toBeUndefined();
    return { error: await v1Error(gw.v1('/group/create', { name })), values: [name] };
  },
  'account-not-exist': async () => ({
    error: await v1Error(gw.v1('/ma/account/get', { account_id: 'no-such-account' })),
    values: ['no-such-account'],
  }),
  'no-recording': async () => {
    const id = await happenedMeeting(false);
    return { error: await v1Error(gw.v1('/recording/get', { meeting_id: id })), values: [id] };
  },
  'recording-file-not-exist': async () => {
    const id = await happenedMeeting(true);
    return { error: await v1Error(gw.v1('/recording/delete', { meeting_id: id, file_id: 'no-such-file' })), values: ['no-such-file'] };
  },
};

describe('every v1 error text of the evidence table, from the call that answers it', () => {
  it.each(Object.keys(CASES) as (keyof typeof CASES)[])('%s', async (id) => {
    const row = ERROR_TEXTS[id];
    const { error, values } = await CASES[id]();
    expect(error, `${id} answered no error`).toMatchObject({ code: row.code });
    expect((error as { message: string }).message).toMatch(pattern(row.text, values));
  });
});
