import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_TEXTS, type ErrorText, type ErrorTextId } from '../../mappings/error-texts.js';
import type { RunningGateway } from '../../src/gateway.js';
import { readRawBody } from '../../src/http/request-body.js';
import { defineEndpoint } from '../../src/translators/kit/define.js';
import { v1ErrorAnswer } from '../../src/translators/kit/error-answer.js';
import { refusalOfUnread } from '../../src/v1-steps/unread.js';
import { V2_BATCH } from '../../src/translators/registration/registrant-ids.js';
import { hashSecret } from '../../src/upstream/auth/secret-hash.js';
import { V1Code } from '../../src/v1/errors.js';
import { v1Params } from '../../src/v1/param-types.js';
import { expectErrorText } from '../support/error-text.js';
import { startFaultUpstream, startGatewayOver, type Fault, type FaultRule, type FaultUpstream } from '../support/fault-upstream.js';
import { emptyCredentialFile, startTestGateway, type TestGateway } from '../support/gateway.js';
import { httpRequest, rawExchange } from '../support/raw-http.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';
import { FUTURE, uniqueEmail } from '../support/v1-answers.js';
import { postV1 } from '../support/v1-form.js';
import { HOLE, v1ErrorSites, v1ErrorsOutsideTheTable } from '../support/v1-error-sites.js';
import { createWebinar } from './registration-support.js';

/**
 * Every v1 error text of the evidence table (`ERROR_TEXTS`, rendered in docs/live-evidence.md)
 * comes from a real call here: each case makes the call that ends in its row's error over the real
 * sandbox and names the values its `<placeholders>` stand for; the answer's code and message must
 * be the row's. The record is keyed by every row the file can bring about, so a new row without a
 * case does not compile; the rows it cannot (`notDrivenHere`) name the test that drives them, which
 * must check that row by its id. Then the other direction: every v1 error text written in src/ is a
 * row (test/support/v1-error-sites.ts).
 */

type NotDriven = { [K in ErrorTextId]: (typeof ERROR_TEXTS)[K] extends { notDrivenHere: string } ? K : never }[ErrorTextId];

/**
 * The v1 error a call answered, the values of the row's placeholders in order (`undefined`: whatever
 * v1gate states), and for a row that keeps its failure's code, that code.
 */
interface Outcome {
  error: unknown;
  values: (string | undefined)[];
  keptCode?: number;
}

/** An endpoint that fails as a bug would: the stand-in for the bug no real call can ask for. */
const broken = defineEndpoint({
  path: '/test/broken',
  params: v1Params({}),
  v2Calls: [],
  handle() {
    throw new TypeError('a bug in a translator');
  },
});

let gw: TestGateway;
/** Serving only the endpoint above. */
let buggy: TestGateway;
/** An allow-list that names no real key; small bodies, few fields, short deadlines for headers and stalled bodies. */
let guarded: TestGateway;
/** v1's inbound limits on. */
let limited: TestGateway;
/** Shadow mode over a v1 that is down (nothing listens on the discard port). */
let shadowed: TestGateway;
/** The sandbox key mapped to its OAuth app with a wrong client secret. */
let mapped: TestGateway;
/** A gateway over a sandbox behind a fault-injecting proxy: the v2 failures v1gate words. */
let faulted: { sandbox: RunningSandbox; faults: FaultUpstream; gateway: RunningGateway };
let ownerId: string;

async function refusedAppGateway(): Promise<TestGateway> {
  const file = emptyCredentialFile();
  const gateway = await startTestGateway({ V2_CREDENTIALS_FILE: file });
  const { credentials, oauthApp } = gateway.sandbox;
  const v2 = { kind: 'oauth', account_id: oauthApp.accountId, client_id: oauthApp.clientId, client_secret: 'not-the-app-secret' };
  const entry = { api_key: credentials.apiKey, secret_hash: await hashSecret(credentials.apiSecret), previous_secrets: [], v2 };
  writeFileSync(file, JSON.stringify([entry]), { mode: 0o600 });
  expect(gateway.reloadCredentials()).toMatchObject({ ok: true });
  return gateway;
}

async function faultedGateway(): Promise<typeof faulted> {
  const sandbox = await startSandbox();
  // The sandbox by another name than the proxy's 127.0.0.1: the token's api_url (the sandbox's own
  // origin) then names no host of the proxy's, and v1gate keeps sending through the proxy.
  const faults = await startFaultUpstream(`${sandbox.url.replace('127.0.0.1', 'localhost')}/v2`);
  const gateway = await startGatewayOver(faults.url, { UPSTREAM_MAX_ATTEMPTS: '1' });
  return { sandbox, faults, gateway };
}

beforeAll(async () => {
  [gw, buggy, guarded, limited, shadowed, mapped, faulted] = await Promise.all([
    startTestGateway(),
    startTestGateway({}, { endpoints: [broken] }),
    startTestGateway({
      ALLOWED_API_KEYS: 'only-this-key',
      V1_MAX_BODY_BYTES: '2048',
      V1_MAX_FIELDS: '10',
      V1_HEADERS_TIMEOUT_MS: '300',
      V1_BODY_TIMEOUT_MS: '200',
    }),
    startTestGateway({ V1_RATE_LIMITS: 'on' }),
    startTestGateway({ V1_PRIMARY_URL: 'http://127.0.0.1:9' }),
    refusedAppGateway(),
    faultedGateway(),
  ]);
  ownerId = (await gw.v2('GET', '/users/me')).body.id as string;
});
afterAll(async () => {
  await Promise.all([gw, buggy, guarded, limited, shadowed, mapped, faulted.gateway].map((g) => g.close()));
  await faulted.faults.close();
  await faulted.sandbox.close();
});

/** A v1 call to the faulted gateway while `faults` apply to the v2 calls they match; the rules are spent after it. */
async function withFaults(faults: FaultRule[], path: string, params: Record<string, string>) {
  const { sandbox, gateway } = faulted;
  faulted.faults.rules.push(...faults);
  try {
    const credentials = { api_key: sandbox.sandbox.credentials.apiKey, api_secret: sandbox.sandbox.credentials.apiSecret };
    return ((await (await postV1(gateway.url, path, { ...credentials, ...params })).json()) as { error: unknown }).error;
  } finally {
    faulted.faults.rules.length = 0;
  }
}

/** A v2 failure with no v2 error body: a proxy's page. */
const failing = (status: number): Fault => ({
  kind: 'answer',
  status,
  body: '<html>upstream trouble</html>',
  headers: { 'content-type': 'text/html' },
});

async function v1Error(answer: Promise<any>): Promise<unknown> {
  return (await answer).error;
}

/** A POST of `body` as it is, form-encoded unless another type is named, with the gateway's credentials in the query. */
async function rawForm(path: string, body: string, contentType = 'application/x-www-form-urlencoded'): Promise<unknown> {
  const query = new URLSearchParams(gw.credentials).toString();
  const response = await fetch(`${gw.url}/v1${path}?${query}`, { method: 'POST', headers: { 'content-type': contentType }, body });
  return ((await response.json()) as { error: unknown }).error;
}

const FORM = 'content-type: application/x-www-form-urlencoded';

/**
 * The answer to a client that leaves mid-body, which no client reads: the facade's body reader on a
 * real connection, the client gone (a reset) once the reader has begun, and its failure answered
 * as the facade answers an unread body. Over a whole gateway nothing outside could tell when the
 * reader had begun, and a client gone before it began is a body cut short instead.
 */
async function abortedBodyError(): Promise<unknown> {
  let begun!: () => void;
  const reading = new Promise<void>((resolve) => (begun = resolve));
  let failure!: Promise<unknown>;
  const server = createServer((req) => {
    failure = readRawBody(req).then(
      () => new Error('the body was read whole'),
      (error: unknown) => error,
    );
    begun();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write(`POST /v1/user/list HTTP/1.1\r\nHost: 127.0.0.1\r\n${FORM}\r\nContent-Length: 100\r\n\r\npage_size=10`);
    await reading;
    socket.resetAndDestroy();
    const answer = v1ErrorAnswer(refusalOfUnread(await failure));
    return ((await answer.json()) as { error: unknown }).error;
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** The v1 error of the one answer to `bytes` sent as they are (to `gw` unless another is named). */
async function rawError(bytes: Buffer | string, to: TestGateway = gw): Promise<unknown> {
  const reply = await rawExchange(to.port, bytes, { waitMs: 3000 });
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
  'undecodable-params': async () => ({ error: await rawForm('/user/get', 'id=%ZZ'), values: ['Parameter id', 'ZZ'] }),
  'too-many-params': async () => {
    const fields = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`field${i}`, 'x']));
    return { error: await v1Error(guarded.v1('/user/list', fields, { noCredentials: true })), values: ['10'] };
  },
  'malformed-multipart': async () => ({
    error: await rawForm('/user/list', 'no parts here', 'multipart/form-data; boundary=not-in-the-body'),
    values: [],
  }),
  'unsupported-content-type': async () => ({
    error: await rawForm('/user/list', '{"id":"1"}', 'application/json'),
    values: ['application/json'],
  }),
  'unsupported-charset': async () => ({
    error: await rawForm('/user/list', 'id=1', 'application/x-www-form-urlencoded; charset=klingon'),
    values: ['klingon'],
  }),
  'connect-refused': async () => ({
    error: await rawError('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'),
    values: [],
  }),
  'headers-too-slow': async () => ({
    error: await rawError('POST /v1/user/list HTTP/1.1\r\nHost: 127.0.0.1\r\n', guarded),
    values: ['300'],
  }),
  'body-cut-short': async () => {
    const body = 'page_size=10';
    const request = httpRequest({
      path: '/v1/user/list',
      body,
      contentLength: body.length + 25,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    return { error: await rawError(request, guarded), values: [String(body.length), String(body.length + 25)] };
  },
  'body-stopped': async () => {
    const head = `POST /v1/user/list HTTP/1.1\r\nHost: 127.0.0.1\r\n${FORM}\r\nTransfer-Encoding: chunked\r\n\r\n`;
    return { error: await rawError(`${head}c\r\npage_size=10\r\n`, guarded), values: [] };
  },
  'body-aborted': async () => ({ error: await abortedBodyError(), values: [] }),
  'body-over-announced': async () => {
    // Raw UTF-8 counted in characters, as a legacy client miscounts it: the bytes after the announced length are no request.
    const body = `${new URLSearchParams(gw.credentials).toString()}&text=José Müller`;
    const request = httpRequest({
      path: '/v1/user/list',
      body,
      contentLength: body.length,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    return { error: await rawError(request), values: [] };
  },
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
    const error = await v1Error(gw.v1('/meeting/get', { id: meeting.id, host_id: other }));
    return { error, values: ['meeting', String(meeting.id), other] };
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
  'shutting-down': async () => {
    const drained = await startTestGateway();
    await drained.drain(0);
    // The drained gateway no longer listens: the app it mounted answers in process, as its server would have.
    const form = new URLSearchParams(drained.credentials);
    const answer = await drained.fetch(new Request(`${drained.url}/v1/user/list`, { method: 'POST', body: form }));
    return { error: ((await answer.json()) as { error: unknown }).error, values: [] };
  },
  'primary-unavailable': async () => ({ error: await v1Error(shadowed.v1('/user/list')), values: [] }),
  'upstream-unchanged': async () => ({
    error: await withFaults([{ method: 'GET', path: /^\/users\/[^/]+$/, fault: failing(431) }], '/user/get', { id: 'me' }),
    values: [undefined],
  }),
  'upstream-maybe-applied': async () => ({
    error: await withFaults([{ method: 'POST', path: /^\/groups$/, fault: failing(502) }], '/group/create', {
      name: `maybe ${Date.now()}`,
    }),
    values: [undefined],
  }),
  'v2-token-refused': async () => ({ error: await v1Error(mapped.v1('/user/list')), values: [] }),
  internal: async () => ({ error: await v1Error(buggy.v1('/test/broken')), values: [] }),
  'no-privilege': async () => {
    const created = await gw.v2('POST', '/accounts', {
      body: { first_name: 'Sub', last_name: 'Owner', email: uniqueEmail('texts-sub'), password: 'secret-pass-1' },
    });
    expect(created.status).toBe(201);
    const sub = gw.sandbox.state.accounts.get(created.body.id as string)!;
    return { error: await v1Error(gw.v1('/ma/account/list', { api_key: sub.apiKey, api_secret: sub.apiSecret })), values: [] };
  },
  'v2-invalid-fields': async () => {
    const refusal = { code: 300, message: 'Validation Failed.', errors: [{ field: 'settings.host_video', message: 'Invalid field.' }] };
    const fault: Fault = { kind: 'answer', status: 400, body: JSON.stringify(refusal) };
    const params = { host_id: faulted.sandbox.sandbox.master.ownerId, topic: 'fields', type: '2' };
    return {
      error: await withFaults([{ method: 'POST', path: /^\/users\/[^/]+\/meetings$/, fault }], '/meeting/create', params),
      values: ['option_host_video', 'Invalid field.'],
    };
  },
  'unknown-gateway-path': async () => {
    const answer = await fetch(`${gw.url}/nowhere`);
    expect(answer.status).toBe(404);
    return { error: ((await answer.json()) as { error: unknown }).error, values: ['/nowhere'] };
  },
  'json-body': async () => {
    const answer = await fetch(`${gw.url}/sdk/signature`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"role":',
    });
    return { error: ((await answer.json()) as { error: unknown }).error, values: ['could not be parsed'] };
  },
  'registration-not-enabled': async () => {
    const webinar = await createWebinar(gw, { approval: 2 });
    return { error: await v1Error(gw.v1('/webinar/registrants/list', { id: webinar.id, host_id: ownerId })), values: [String(webinar.id)] };
  },
  'no-ended-instance': async () => {
    // An instance of another webinar: v2 reports it, but it is not one of this webinar's.
    const [webinar, another] = [await createWebinar(gw, { approval: 2 }), await createWebinar(gw, { approval: 2 })];
    const happened = await gw.control('POST', `/meetings/${another.id}/happen`, { duration_minutes: 30 });
    expect(happened.status).toBe(201);
    const uuid = happened.body.uuid as string;
    const params = { id: webinar.id, host_id: ownerId, uuid };
    return { error: await v1Error(gw.v1('/webinar/attendees/list', params)), values: [String(webinar.id), uuid] };
  },
  'read-back-failed': async () => {
    const id = (await faulted.sandbox.v2('POST', '/groups', { body: { name: `before ${Date.now()}` } })).body.id as string;
    const fault = { method: 'GET', path: new RegExp(`^/groups/${id}$`), fault: failing(500) };
    return { error: await withFaults([fault], '/group/edit', { id, name: `after ${id}` }), values: [undefined, undefined], keptCode: 503 };
  },
  'steps-undone': async () => ({
    error: await withFaults([{ method: 'PATCH', path: /^\/users\/[^/]+$/, fault: failing(503) }], '/user/custcreate', {
      email: uniqueEmail('undone'),
      type: '1',
      dept: 'Sales',
    }),
    values: [undefined],
  }),
  'undo-failed': async () => {
    const faults = [
      { method: 'PATCH', path: /^\/users\/[^/]+$/, fault: failing(503) },
      { method: 'DELETE', path: /^\/users\/[^/]+$/, fault: failing(503) },
    ];
    const params = { email: uniqueEmail('not-undone'), type: '1', dept: 'Sales' };
    return { error: await withFaults(faults, '/user/custcreate', params), values: [undefined, undefined], keptCode: 503 };
  },
  'no-qos-data': async () => {
    // The sandbox's host is in every session it holds; the service lists only those who reported QoS.
    const id = String(
      (await faulted.sandbox.v2('POST', '/users/me/meetings', { body: { topic: 'no qos', type: 2, start_time: FUTURE } })).body.id,
    );
    expect((await faulted.sandbox.control('POST', `/meetings/${id}/happen`, { duration_minutes: 30 })).status).toBe(201);
    const empty = { page_size: 1, total_records: 0, next_page_token: '', participants: [] };
    const fault: Fault = { kind: 'answer', status: 200, body: JSON.stringify(empty) };
    const error = await withFaults([{ method: 'GET', path: /\/participants\/qos$/, fault }], '/metrics/qos', { meeting_id: id, type: '2' });
    return { error, values: [id] };
  },
  'registrants-part-done': async () => {
    // One more pending registrant than v2 takes in one status change: two batches, the second refused.
    const { v2, sandbox } = faulted.sandbox;
    const settings = { approval_type: 1 };
    const webinar = (await v2('POST', '/users/me/webinars', { body: { topic: 'batches', start_time: FUTURE, duration: 60, settings } }))
      .body;
    const ids: string[] = [];
    for (let i = 0; i <= V2_BATCH; i++) {
      const body = { first_name: 'Guest', last_name: `No${i}`, email: `batch${i}@example.com` };
      ids.push((await v2('POST', `/webinars/${webinar.id}/registrants`, { body })).body.registrant_id as string);
    }
    const status = /^\/webinars\/\d+\/registrants\/status$/;
    const faults: FaultRule[] = [
      { method: 'PUT', path: status, fault: { kind: 'delay', ms: 0 }, times: 1 },
      { method: 'PUT', path: status, fault: failing(503) },
    ];
    const params = { id: String(webinar.id), host_id: sandbox.master.ownerId, registrant_ids: ids.join(',') };
    const error = await withFaults(faults, '/webinar/registrants/approve', params);
    return { error, values: [undefined, ids.slice(0, V2_BATCH).join(', '), 'approved', ids.slice(V2_BATCH).join(', ')], keptCode: 503 };
  },
  'sub-account-disassociated': async () => {
    const email = uniqueEmail('disassociated');
    const params = { email, first_name: 'Sub', last_name: 'Owner', password: 'secret-pass-1' };
    const fault = { method: 'PATCH', path: /^\/accounts\/[^/]+\/settings$/, fault: failing(503) };
    return { error: await withFaults([fault], '/ma/account/create', params), values: [undefined, undefined, email], keptCode: 503 };
  },
};

describe('every v1 error text of the evidence table, from the call that answers it', () => {
  it.each(Object.keys(CASES) as (keyof typeof CASES)[])('%s', async (id) => {
    const { error, values, keptCode } = await CASES[id]();
    expectErrorText(error, id, values, keptCode);
  });
});

describe('the rows this file cannot bring about', () => {
  const notDriven = Object.entries(ERROR_TEXTS as Record<ErrorTextId, ErrorText>).filter(([, row]) => row.notDrivenHere);

  it.each(notDriven)('%s names a test that exists and checks that row', (id, row) => {
    const test = /: (test\/[\w./-]+\.test\.ts)$/.exec(row.notDrivenHere!)?.[1];
    expect(test, `${id}: notDrivenHere must end with ": test/....test.ts"`).toBeDefined();
    const file = new URL(`../../${test}`, import.meta.url);
    expect(existsSync(file), `${id}: ${test} does not exist`).toBe(true);
    // A check of the answer against the row (`expectErrorText(…, '<id>'…)`), or a reference to the row's text itself.
    const checks = new RegExp(`expectErrorText\\([^;]*'${id}'|ERROR_TEXTS\\['${id}'\\]`);
    expect(readFileSync(file, 'utf8'), `${test} does not check the row ${id}`).toMatch(checks);
  });
});

describe('every v1 error v1gate builds', () => {
  it('has its text in the evidence table', () => {
    expect(v1ErrorsOutsideTheTable()).toEqual([]);
  });

  it('is found where it is written: the scan reads templates, branches and constants', () => {
    const sites = v1ErrorSites();
    const at = (file: string) => sites.filter((site) => site.where.startsWith(`${file}:`)).map((site) => site.text.replaceAll(HOLE, '<>'));
    expect(at('src/translators/sessions/host-check.ts')).toEqual(['The <> <> is not hosted by user <>.']);
    expect(at('src/v1/errors.ts')).toEqual([
      'Invalid parameter: <>. <>',
      '<> is required.',
      'Sorry, the maximum number of api requests are already reached. Please try later.',
    ]);
  });

  it('is outside the table when no row has its words, or the row is of another kind or code', () => {
    const notHosted = `The meeting ${HOLE} is not hosted by user ${HOLE}.`;
    expect(v1ErrorsOutsideTheTable([{ where: 'a', text: notHosted, code: V1Code.notMeetingHost }])).toEqual([]);
    const outside = [
      { where: 'b', text: `The meeting ${HOLE} is not hosted.` },
      { where: 'c', text: notHosted, code: V1Code.invalidParameter },
      { where: 'd', text: 'Api key and secret are required.', kind: 'key-not-allowed' },
    ];
    expect(v1ErrorsOutsideTheTable(outside).map((site) => site.split(' ')[0])).toEqual(['b', 'c', 'd']);
  });
});
