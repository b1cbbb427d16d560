import httpBuildQuery from 'locutus/php/url/http_build_query.js';
import { stringify as nodeFormEncode } from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ALL_ENDPOINTS } from '../../src/translators/endpoints.js';
import { MAX_LIST_ITEMS } from '../../src/v1/param-types.js';
import { createUsers, uniqueName } from './groups-support.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { httpRequest, rawExchange } from '../support/raw-http.js';
import { FUTURE, uniqueEmail } from '../support/v1-answers.js';
import { createMeeting } from './registration-support.js';

/**
 * What real v1 clients put on the wire: PHP's http_build_query (locutus's port: every field, empty
 * ones too, `1`/`0` booleans, `a[0]=` lists, `a[0][b]=` lists of objects), Node's form encoder
 * (qs, which the `request` library the Node binding used sends forms with), and byte-level replays
 * where npm has no encoder: Python requests (repeated keys), Ruby HTTParty (`a[][b]=`), Java's
 * URLEncoder in Latin-1 with no charset, bodies ending in CR/LF, unknown params of newer bindings,
 * and a wrong secret with a long id list.
 */
let gw: TestGateway;
let creds: string;

/** POST a raw urlencoded body as the client family sends it; answers the status, the v1 body and the v2 call count. */
async function send(path: string, body: string | Buffer, contentType = 'application/x-www-form-urlencoded') {
  const reply = await rawExchange(
    gw.port,
    httpRequest({ path, body: typeof body === 'string' ? body : body.toString('latin1'), headers: { 'Content-Type': contentType } }),
  );
  const response = reply.responses[0]!;
  return { body: JSON.parse(response.body), v2Calls: Number(response.headers['x-v2-calls']) };
}

beforeAll(async () => {
  gw = await startTestGateway();
  creds = new URLSearchParams(gw.credentials).toString();
});
afterAll(() => gw.close());

describe('every endpoint with all its optional fields sent empty (PHP http_build_query)', () => {
  for (const endpoint of ALL_ENDPOINTS) {
    const shape = (endpoint.params as unknown as z.ZodObject).shape as Record<string, z.ZodType>;
    const optional = Object.keys(shape).filter((name) => shape[name]!.safeParse(undefined).success);
    if (optional.length === 0) continue;
    it(endpoint.path, async () => {
      const body = `${creds}&${optional.map((name) => `${encodeURIComponent(name)}=`).join('&')}`;
      const { body: answer } = await send(`/v1${endpoint.path}`, body);
      const message: string = answer.error?.message ?? '';
      for (const name of optional) {
        expect(message, `${endpoint.path}: ${name} sent empty`).not.toBe(`${name} is required.`);
        expect(message, `${endpoint.path}: ${name} sent empty`).not.toMatch(new RegExp(`^Invalid parameter: ${name}\\.`));
      }
    });
  }
});

describe('PHP http_build_query', () => {
  it('creates a user from a body with empty fields and 1/0 booleans', async () => {
    const email = uniqueEmail('php');
    const body = httpBuildQuery({
      ...gw.credentials,
      email,
      type: 1,
      first_name: 'Ada',
      last_name: '',
      dept: '',
      password: '',
      timezone: '',
      enable_webinar: false,
      disable_chat: true,
      pmi: '',
    });
    expect(body).toContain('enable_webinar=0&disable_chat=1&pmi=');
    const { body: answer } = await send('/v1/user/create', body);
    expect(answer).toMatchObject({ email, first_name: 'Ada' });
  });

  it('reads indexed lists a[0]=x&a[1]=y', async () => {
    const id = (await gw.v1('/group/create', { name: uniqueName() })).group_id as string;
    const users = await createUsers(gw, 2);
    const body = httpBuildQuery({ ...gw.credentials, id, member_ids: users.map((u) => u.id) });
    expect(body).toContain('member_ids%5B0%5D=');
    const { body: answer } = await send('/v1/group/member/add', body);
    expect(answer).toMatchObject({ id, add_count: 2 });
  });

  it('reads custom_questions sent as a[0][title]= fields, as the JSON form reads', async () => {
    const session = await createMeeting(gw);
    const custom_questions = [
      { title: 'Favourite number', value: '42' },
      { title: 'Newsletter', value: 'yes' },
    ];
    const body = httpBuildQuery({
      ...gw.credentials,
      id: session.id,
      email: 'php@example.com',
      first_name: 'Pam',
      last_name: 'Hp',
      phone: '',
      custom_questions,
    });
    expect(body).toContain('custom_questions%5B0%5D%5Btitle%5D=Favourite+number');
    const { body: answer } = await send('/v1/meeting/register', body);
    expect(answer.registrant_id).toEqual(expect.any(String));
    const registrants = (await gw.v2('GET', `/meetings/${session.id}/registrants`)).body.registrants as {
      email: string;
      custom_questions: unknown;
    }[];
    expect(registrants.find((r) => r.email === 'php@example.com')?.custom_questions).toEqual(custom_questions);
  });

  it('creates a webinar with panelists sent as a[0][name]= fields', async () => {
    const owner = (await gw.v1('/user/getbyemail', { email: 'owner@sandbox.v1gate.local' })).id as string;
    const panelists = [
      { name: 'Ada', email: 'ada@example.com' },
      { name: 'Bob', email: 'bob@example.com' },
    ];
    const body = httpBuildQuery({
      ...gw.credentials,
      host_id: owner,
      topic: 'PHP launch',
      type: 5,
      start_time: FUTURE,
      duration: 60,
      agenda: '',
      panelists,
    });
    const { body: answer } = await send('/v1/webinar/create', body);
    const listed = (await gw.v2('GET', `/webinars/${answer.id}/panelists`)).body.panelists as { name: string; email: string }[];
    expect(listed.map(({ name, email }) => ({ name, email }))).toEqual(panelists);
  });

  it('refuses a nested list whose items lack a field, naming the param and registering nobody', async () => {
    const session = await createMeeting(gw);
    const body = httpBuildQuery({
      ...gw.credentials,
      id: session.id,
      email: 'half@example.com',
      first_name: 'Half',
      last_name: 'Done',
      custom_questions: [{ value: '42' }],
    });
    const { body: answer } = await send('/v1/meeting/register', body);
    expect(answer.error).toMatchObject({ code: 300, message: expect.stringMatching(/^Invalid parameter: custom_questions\./) });
    expect((await gw.v2('GET', `/meetings/${session.id}/registrants`)).body.registrants).toEqual([]);
  });
});

describe('Node (qs, as the request library encodes forms)', () => {
  it("creates a webinar with panelists in qs's default indexed form, booleans as true/false", async () => {
    const owner = (await gw.v1('/user/getbyemail', { email: 'owner@sandbox.v1gate.local' })).id as string;
    const panelists = [{ name: 'Cy', email: 'cy@example.com' }];
    const body = nodeFormEncode({
      ...gw.credentials,
      host_id: owner,
      topic: 'Node launch',
      type: 5,
      start_time: FUTURE,
      duration: 60,
      option_host_video: false,
      panelists,
    });
    const { body: answer } = await send('/v1/webinar/create', body);
    expect((await gw.v2('GET', `/webinars/${answer.id}`)).body.settings.host_video).toBe(false);
    const listed = (await gw.v2('GET', `/webinars/${answer.id}/panelists`)).body.panelists as { name: string; email: string }[];
    expect(listed.map(({ name, email }) => ({ name, email }))).toEqual(panelists);
  });

  it("reads a list in qs's brackets form a[]=x", async () => {
    const id = (await gw.v1('/group/create', { name: uniqueName() })).group_id as string;
    const users = await createUsers(gw, 2);
    const body = nodeFormEncode({ ...gw.credentials, id, member_ids: users.map((u) => u.id) }, { arrayFormat: 'brackets' });
    const { body: answer } = await send('/v1/group/member/add', body);
    expect(answer).toMatchObject({ id, add_count: 2 });
  });
});

describe('Ruby HTTParty (its HashConversions.to_params, replayed)', () => {
  it('creates a webinar with panelists sent as a[][name]= fields', async () => {
    const owner = (await gw.v1('/user/getbyemail', { email: 'owner@sandbox.v1gate.local' })).id as string;
    // HTTParty.post(url, body: { ..., panelists: [{ name: 'Di', email: 'di@example.com' }, { name: 'Ed', email: 'ed@example.com' }] })
    const body = `${creds}&host_id=${owner}&topic=Ruby%20launch&type=5&start_time=${encodeURIComponent(FUTURE)}&duration=60&panelists%5B%5D%5Bname%5D=Di&panelists%5B%5D%5Bemail%5D=di%40example.com&panelists%5B%5D%5Bname%5D=Ed&panelists%5B%5D%5Bemail%5D=ed%40example.com`;
    const { body: answer } = await send('/v1/webinar/create', body);
    const listed = (await gw.v2('GET', `/webinars/${answer.id}/panelists`)).body.panelists as { name: string; email: string }[];
    expect(listed.map(({ name }) => name)).toEqual(['Di', 'Ed']);
  });
});

describe('Python requests', () => {
  it('reads a repeated key as a list where the param is a list', async () => {
    const id = (await gw.v1('/group/create', { name: uniqueName() })).group_id as string;
    const users = await createUsers(gw, 2);
    const { body: answer } = await send('/v1/group/member/add', `${creds}&id=${id}&member_ids=${users[0]!.id}&member_ids=${users[1]!.id}`);
    expect(answer).toMatchObject({ id, add_count: 2 });
  });

  it('takes the last value of a repeated key where the param is a scalar', async () => {
    const name = uniqueName();
    const { body: answer } = await send('/v1/group/create', `${creds}&name=first&name=${encodeURIComponent(name)}`);
    expect(answer.name).toBe(name);
  });
});

describe('Java URLEncoder in Latin-1, no charset declared', () => {
  it('decodes a body that is not UTF-8 as windows-1252', async () => {
    const owner = (await gw.v1('/user/getbyemail', { email: 'owner@sandbox.v1gate.local' })).id as string;
    // URLEncoder.encode("Réunion d'équipe", "ISO-8859-1")
    const body = `${creds}&host_id=${owner}&type=2&start_time=${FUTURE}&duration=30&topic=R%E9union+d%27%E9quipe`;
    const { body: created } = await send('/v1/meeting/create', body);
    expect(created.topic).toBe("Réunion d'équipe");
  });

  it('keeps refusing bytes that are not text in a declared charset', async () => {
    const { body: answer } = await send('/v1/group/create', `${creds}&name=R%E9union`, 'application/x-www-form-urlencoded; charset=UTF-8');
    expect(answer.error).toMatchObject({ code: 300, message: expect.stringMatching(/not valid utf-8/) });
  });
});

describe('values as clients wrap them', () => {
  it('trims surrounding whitespace and a trailing CR/LF', async () => {
    const name = uniqueName();
    const { body: answer } = await send('/v1/group/create', `${creds}&name=${encodeURIComponent(`  ${name}`)}\r\n`);
    expect(answer.name).toBe(name);
  });

  it('ignores the unknown params of newer bindings', async () => {
    const { body: answer } = await send(
      '/v1/user/checkemail',
      `${creds}&email=owner%40sandbox.v1gate.local&token=abc&api_account_id=x&base_uri=https%3A%2F%2Fapi.example.com`,
    );
    expect(answer).toEqual({ existed_email: true });
  });
});

describe('credentials first', () => {
  it('a wrong secret with a long id list makes one v2 call', async () => {
    const id = (await gw.v1('/group/create', { name: uniqueName() })).group_id as string;
    const ids = Array.from({ length: MAX_LIST_ITEMS }, (_, i) => `user${i}`).join(',');
    const { body: answer, v2Calls } = await send(
      '/v1/group/member/delete',
      `api_key=${gw.credentials.api_key}&api_secret=wrong&id=${id}&member_ids=${ids}`,
    );
    expect(answer.error.code).toBe(102);
    expect(v2Calls).toBe(1);
  });

  it('an id list past its bound is refused naming the field, before any v2 call', async () => {
    const ids = Array.from({ length: MAX_LIST_ITEMS + 1 }, (_, i) => `user${i}`).join(',');
    const { body: answer, v2Calls } = await send('/v1/group/member/delete', `${creds}&id=g&member_ids=${ids}`);
    expect(answer).toEqual({ error: { code: 300, message: `Invalid parameter: member_ids. At most ${MAX_LIST_ITEMS} values.` } });
    expect(v2Calls).toBe(0);
  });

  it('an id of "." or ".." (plain or encoded) is refused and never changes the v2 route', async () => {
    const id = (await gw.v1('/group/create', { name: uniqueName() })).group_id as string;
    for (const bad of ['..', '%2e%2e', '.', '%2E']) {
      const { body: answer, v2Calls } = await send('/v1/group/member/delete', `${creds}&id=${id}&member_ids=${bad}`);
      expect(answer, bad).toEqual({ error: { code: 300, message: expect.stringMatching(/^Invalid parameter: member_ids\./) } });
      expect(v2Calls, bad).toBe(0);
    }
    expect((await gw.v2('GET', `/groups/${id}`)).status).toBe(200);
  });
});

describe('HTTP/1.0 clients on raw sockets', () => {
  const form = () => `${creds}&email=owner%40sandbox.v1gate.local`;
  const head = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`;

  it('are answered without a Host header', async () => {
    const body = form();
    const reply = await rawExchange(
      gw.port,
      head(['POST /v1/user/checkemail HTTP/1.0', 'Content-Type: application/x-www-form-urlencoded', `Content-Length: ${body.length}`]) +
        body,
    );
    expect(JSON.parse(reply.responses[0]!.body)).toEqual({ existed_email: true });
    expect(reply.closedByServer).toBe(true);
  });

  it('have a body without Content-Length read to the end they mark by closing their side', async () => {
    const reply = await rawExchange(
      gw.port,
      head(['POST /v1/user/checkemail HTTP/1.0', 'Content-Type: application/x-www-form-urlencoded']) + form(),
      { halfClose: true },
    );
    expect(JSON.parse(reply.responses[0]!.body)).toEqual({ existed_email: true });
  });

  it('have a body without Content-Length answered after a pause when the client keeps its side open', async () => {
    const reply = await rawExchange(gw.port, head(['POST /v1/user/checkemail HTTP/1.0', 'Host: legacy']) + form(), { waitMs: 5_000 });
    expect(JSON.parse(reply.responses[0]!.body)).toEqual({ existed_email: true });
  });

  it('get a v1 envelope whatever their Host header holds', async () => {
    const body = form();
    const reply = await rawExchange(
      gw.port,
      head(['POST /v1/user/checkemail HTTP/1.1', 'Host: bad host/../x', 'Connection: close', `Content-Length: ${body.length}`]) + body,
    );
    expect(JSON.parse(reply.responses[0]!.body)).toEqual({ existed_email: true });
  });
});

describe('methods other than POST', () => {
  it('run nothing and get the envelope a GET gets; HEAD without its body', async () => {
    const get = await rawExchange(gw.port, httpRequest({ method: 'GET', path: '/v1/user/checkemail', headers: { Connection: 'close' } }));
    const envelope = JSON.parse(get.responses[0]!.body);
    expect(envelope).toEqual({ error: { code: 300, message: expect.stringContaining('POST') } });
    for (const method of ['PUT', 'DELETE', 'OPTIONS', 'PATCH']) {
      const reply = await rawExchange(gw.port, httpRequest({ method, path: '/v1/user/checkemail', headers: { Connection: 'close' } }));
      expect(JSON.parse(reply.responses[0]!.body), method).toMatchObject({ error: { code: 300 } });
      expect(reply.responses[0]!.headers['x-v2-calls'], method).toBe('0');
    }
    const headReply = await rawExchange(
      gw.port,
      httpRequest({ method: 'HEAD', path: '/v1/user/checkemail', headers: { Connection: 'close' } }),
    );
    expect(headReply.responses[0]).toMatchObject({ status: 200, body: '' });
    expect(headReply.responses[0]!.headers['content-type']).toMatch(/^application\/json/);
  });
});
