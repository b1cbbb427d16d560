import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ALL_ENDPOINTS } from '../../src/translators/registry.js';
import { MAX_LIST_ITEMS } from '../../src/translators/v1-params.js';
import { createUsers, uniqueName } from './groups-support.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { httpRequest, rawExchange } from '../support/raw-http.js';
import { FUTURE, uniqueEmail } from '../support/v1-answers.js';

/**
 * What real v1 clients put on the wire, replayed byte for byte: PHP's http_build_query (every
 * field, empty ones too; `a[0]=` lists), Python requests (repeated keys), Java's URLEncoder in
 * Latin-1 with no charset, bodies ending in CR/LF, unknown params of newer bindings, and a wrong
 * secret with a long id list.
 */
let gw: TestGateway;
let creds: string;

/** POST a raw urlencoded body as the client family sends it; answers the status, the v1 body and the v2 call count. */
async function send(path: string, body: string | Buffer, contentType = 'application/x-www-form-urlencoded') {
  const reply = await rawExchange(gw.port, httpRequest({ path, body: typeof body === 'string' ? body : body.toString('latin1'), headers: { 'Content-Type': contentType } }));
  const response = reply.responses[0]!;
  return { body: JSON.parse(response.body) as any, v2Calls: Number(response.headers['x-v2-calls']) };
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

describe('PHP', () => {
  it('creates a user from an http_build_query body with empty fields and 1/0 booleans', async () => {
    const email = uniqueEmail('php');
    const body = `${creds}&email=${encodeURIComponent(email)}&type=1&first_name=Ada&last_name=&dept=&password=&timezone=&enable_webinar=0&disable_chat=1&pmi=`;
    const { body: answer } = await send('/v1/user/create', body);
    expect(answer).toMatchObject({ email, first_name: 'Ada' });
  });

  it('reads indexed lists a[0]=x&a[1]=y', async () => {
    const id = (await gw.v1('/group/create', { name: uniqueName() })).group_id as string;
    const users = await createUsers(gw, 2);
    const { body: answer } = await send('/v1/group/member/add', `${creds}&id=${id}&member_ids%5B0%5D=${users[0]!.id}&member_ids%5B1%5D=${users[1]!.id}`);
    expect(answer).toMatchObject({ id, add_count: 2 });
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
    const { body: answer } = await send('/v1/user/checkemail', `${creds}&email=owner%40sandbox.v1gate.local&token=abc&api_account_id=x&base_uri=https%3A%2F%2Fapi.example.com`);
    expect(answer).toEqual({ existed_email: true });
  });
});

describe('credentials first', () => {
  it('a wrong secret with a long id list makes one v2 call', async () => {
    const id = (await gw.v1('/group/create', { name: uniqueName() })).group_id as string;
    const ids = Array.from({ length: MAX_LIST_ITEMS }, (_, i) => `user${i}`).join(',');
    const { body: answer, v2Calls } = await send('/v1/group/member/delete', `api_key=${gw.credentials.api_key}&api_secret=wrong&id=${id}&member_ids=${ids}`);
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
