import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEndpoint } from '../../src/translators/kit/define.js';
import { ALL_ENDPOINTS } from '../../src/translators/endpoints.js';
import { v1, v1Params } from '../../src/v1/param-types.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { httpRequest, rawExchange } from '../support/raw-http.js';

/**
 * How the facade reads what real legacy clients send. The echo translator is a test fixture: it
 * answers the params exactly as the facade parsed them, so each habit is checked byte for byte.
 */
const echo = defineEndpoint({
  path: '/test/echo',
  params: v1Params({
    text: v1.string().optional(),
    flag: v1.bool().optional(),
    ids: v1.list().optional(),
    pic: v1.file().optional(),
    recurrence: v1.json(z.object({ type: z.number() })).optional(),
  }),
  v2Calls: [],
  async handle(params) {
    const { pic, ...rest } = params;
    return { ...rest, ...(pic ? { pic: { name: pic.name, size: pic.size, type: pic.type } } : {}) };
  },
});

let gw: TestGateway;
let keepAliveGw: TestGateway;
let small: TestGateway;
let auth: { api_key: string; api_secret: string };
let form: string;

beforeAll(async () => {
  gw = await startTestGateway({ V1_BODY_TIMEOUT_MS: '300' }, { endpoints: [...ALL_ENDPOINTS, echo] });
  keepAliveGw = await startTestGateway({ V1_KEEP_ALIVE: 'on' }, { endpoints: [...ALL_ENDPOINTS, echo] });
  small = await startTestGateway({ V1_MAX_BODY_BYTES: '2048', ALLOWED_API_KEYS: 'only-this-key' });
  auth = gw.credentials;
  form = new URLSearchParams(auth).toString();
});
afterAll(async () => {
  await Promise.all([gw.close(), keepAliveGw.close(), small.close()]);
});

const post = (g: TestGateway, path: string, body: string | FormData | undefined, headers: Record<string, string> = {}) =>
  fetch(`${g.url}${path}`, { method: 'POST', body, headers }).then(async (r) => ({
    headers: r.headers,
    status: r.status,
    text: await r.text(),
  }));

describe('where parameters come from', () => {
  it('reads the query string of a POST with an empty body and no content type', async () => {
    const reply = await rawExchange(gw.port, httpRequest({ path: `/v1/test/echo?${form}&text=from-query`, contentLength: 0 }));
    expect(reply.responses[0]!.status).toBe(200);
    expect(JSON.parse(reply.responses[0]!.body)).toEqual({ text: 'from-query' });
  });

  it('merges query and body, the body winning', async () => {
    const reply = await post(gw, `/v1/test/echo?text=query&flag=false`, `${form}&text=body`, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(JSON.parse(reply.text)).toEqual({ text: 'body', flag: false });
  });

  it('reads a form body sent with no content type at all', async () => {
    const reply = await rawExchange(gw.port, httpRequest({ path: '/v1/test/echo', body: `${form}&text=bare` }));
    expect(JSON.parse(reply.responses[0]!.body)).toEqual({ text: 'bare' });
  });

  it('reads multipart bodies, files included', async () => {
    const body = new FormData();
    for (const [k, v] of Object.entries(auth)) body.append(k, v);
    body.append('text', 'multi');
    body.append('pic', new Blob([Buffer.from([0xff, 0xd8, 0xff, 0xe0])], { type: 'image/jpeg' }), 'me.jpg');
    const reply = await post(gw, '/v1/test/echo', body);
    expect(JSON.parse(reply.text)).toEqual({ text: 'multi', pic: { name: 'me.jpg', size: 4, type: 'image/jpeg' } });
  });

  it('collects a[]=1&a[]=2 arrays, and comma lists, into one list', async () => {
    const arrays = await post(gw, '/v1/test/echo', `${form}&ids[]=1&ids[]=2`, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(JSON.parse(arrays.text)).toEqual({ ids: ['1', '2'] });
    const commas = await post(gw, '/v1/test/echo', `${form}&ids=3,4`, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(JSON.parse(commas.text)).toEqual({ ids: ['3', '4'] });
  });

  it('parses JSON strings inside form fields, and names the field when they are not JSON', async () => {
    const ok = await gw.v1('/test/echo', { recurrence: '{"type":2}' });
    expect(ok).toEqual({ recurrence: { type: 2 } });
    const bad = await gw.v1('/test/echo', { recurrence: '{type:2' });
    expect(bad).toEqual({ error: { code: 300, message: 'Invalid parameter: recurrence. Must be valid JSON.' } });
  });

  it('matches paths in any letter case, with or without a trailing slash', async () => {
    const owner = (await gw.v2('GET', '/users/me')).body;
    for (const path of ['/v1/User/CheckEmail', '/v1/user/checkemail/', '/V1/USER/CHECKEMAIL//']) {
      const reply = await post(gw, path, `${form}&email=${encodeURIComponent(owner.email)}`, {
        'content-type': 'application/x-www-form-urlencoded',
      });
      expect(JSON.parse(reply.text), path).toEqual({ existed_email: true });
    }
  });
});

describe('booleans', () => {
  it.each(['true', 'TRUE', 'True', '1'])('reads %s as true', async (value) => {
    expect(await gw.v1('/test/echo', { flag: value })).toEqual({ flag: true });
  });
  it.each(['false', 'FALSE', '0'])('reads %s as false', async (value) => {
    expect(await gw.v1('/test/echo', { flag: value })).toEqual({ flag: false });
  });
  it.each(['yes', 'on', '2', 'truth'])('refuses %s with 300 naming the field', async (value) => {
    expect(await gw.v1('/test/echo', { flag: value })).toEqual({
      error: { code: 300, message: 'Invalid parameter: flag. Must be true or false.' },
    });
  });
});

describe('data_type', () => {
  it('answers XML when asked, in any letter case', async () => {
    for (const dataType of ['XML', 'xml', 'Xml']) {
      const reply = await gw.v1Raw('/test/echo', { text: 'a<b', data_type: dataType });
      expect(reply.headers.get('content-type')).toBe('application/xml; charset=UTF-8');
      expect(reply.text).toBe('<?xml version="1.0" encoding="UTF-8"?><response><text>a&lt;b</text></response>');
    }
  });

  it('answers errors in XML too', async () => {
    const reply = await gw.v1Raw('/test/echo', { flag: 'maybe', data_type: 'xml' });
    expect(reply.text).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><response><error><code>300</code><message>Invalid parameter: flag. Must be true or false.</message></error></response>',
    );
  });

  it('renders lists as a wrapper of singular elements', async () => {
    const reply = await gw.v1Raw('/test/echo', { ids: '1,2', data_type: 'XML' });
    expect(reply.text).toContain('<ids><id>1</id><id>2</id></ids>');
  });

  it('refuses an unknown data_type in JSON, naming the field', async () => {
    expect(await gw.v1('/test/echo', { data_type: 'YAML' })).toEqual({
      error: { code: 300, message: 'Invalid parameter: data_type. Must be JSON or XML.' },
    });
  });
});

describe('connections: legacy keep-alive habits', () => {
  it('by default answers with Connection: close and closes, so a client that only writes its body on a fresh connection never hangs', async () => {
    const first = httpRequest({ path: '/v1/test/echo', body: `${form}&text=one`, headers: { Connection: 'keep-alive' } });
    // The legacy library's second request on the same socket: headers, then no body until a reconnect.
    const second = httpRequest({ path: '/v1/test/echo', contentLength: 30, headers: { Connection: 'keep-alive' } });
    const reply = await rawExchange(gw.port, Buffer.concat([first, second]));
    expect(reply.closedByServer).toBe(true);
    expect(reply.responses).toHaveLength(1);
    expect(reply.responses[0]!.headers.connection).toBe('close');
    expect(JSON.parse(reply.responses[0]!.body)).toEqual({ text: 'one' });
  });

  it('with V1_KEEP_ALIVE=on keeps the connection for the next request', async () => {
    const one = httpRequest({ path: '/v1/test/echo', body: `${form}&text=one` });
    const two = httpRequest({ path: '/v1/test/echo', body: `${form}&text=two` });
    const reply = await rawExchange(keepAliveGw.port, Buffer.concat([one, two]), { waitMs: 400 });
    expect(reply.responses.map((r) => JSON.parse(r.body))).toEqual([{ text: 'one' }, { text: 'two' }]);
    expect(reply.closedByServer).toBe(false);
  });
});

describe('bodies that do not match their Content-Length', () => {
  const nonAscii = () => `${form}&text=${'José Müller'}`; // raw UTF-8, as the legacy client sends it

  it('answers a clear v1 error, and no reset, when the body is longer than announced (length counted in characters)', async () => {
    const body = nonAscii();
    const reply = await rawExchange(gw.port, httpRequest({ path: '/v1/test/echo', body, contentLength: body.length }));
    expect(Buffer.byteLength(body)).toBeGreaterThan(body.length);
    expect(reply.responses).toHaveLength(1);
    expect(reply.responses[0]!.status).toBe(200);
    expect(JSON.parse(reply.responses[0]!.body)).toEqual({
      error: { code: 300, message: expect.stringContaining('longer than its Content-Length') },
    });
    expect(reply.closedByServer).toBe(true);
  });

  it('answers a clear v1 error instead of hanging when the body is shorter than announced', async () => {
    const body = `${form}&text=short`;
    const started = Date.now();
    const reply = await rawExchange(gw.port, httpRequest({ path: '/v1/test/echo', body, contentLength: body.length + 25 }), {
      waitMs: 5000,
    });
    expect(Date.now() - started).toBeLessThan(4000);
    expect(JSON.parse(reply.responses[0]!.body)).toEqual({
      error: { code: 300, message: expect.stringContaining(`ended after ${body.length} of the ${body.length + 25} bytes`) },
    });
    expect(reply.closedByServer).toBe(true);
  });

  it('reads raw UTF-8 form text correctly when the length is right', async () => {
    const body = nonAscii();
    const reply = await rawExchange(gw.port, httpRequest({ path: '/v1/test/echo', body }));
    expect(JSON.parse(reply.responses[0]!.body)).toEqual({ text: 'José Müller' });
  });
});

describe('bad input', () => {
  it('refuses a body over the size limit without reading it all', async () => {
    const reply = await post(small, '/v1/user/checkemail', `${form}&email=a@b.c&pad=${'x'.repeat(10_000)}`, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(JSON.parse(reply.text)).toEqual({
      error: { code: 300, message: 'The request body is larger than the 2048 bytes v1gate accepts.' },
    });
    expect(reply.headers.get('connection')).toBe('close');
  });

  it('refuses percent-escapes that are not valid in the declared charset, naming the parameter', async () => {
    const reply = await post(gw, '/v1/test/echo', `${form}&text=%FF%FE`, {
      'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
    });
    expect(JSON.parse(reply.text)).toEqual({ error: { code: 300, message: 'Parameter text is not valid utf-8 text.' } });
  });

  it('reads a body that declares no charset and is not UTF-8 as windows-1252', async () => {
    const reply = await post(gw, '/v1/test/echo', `${form}&text=%FF%FE%E9%FC`, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(JSON.parse(reply.text)).toEqual({ text: 'ÿþéü' });
  });

  it('refuses malformed percent-escapes', async () => {
    const reply = await post(gw, '/v1/test/echo', `${form}&text=100%`, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(JSON.parse(reply.text).error.code).toBe(300);
  });

  it('decodes the charset the client declares', async () => {
    const reply = await post(gw, '/v1/test/echo', `${form}&text=Jos%E9`, {
      'content-type': 'application/x-www-form-urlencoded; charset=ISO-8859-1',
    });
    expect(JSON.parse(reply.text)).toEqual({ text: 'José' });
  });

  it('refuses a JSON body: v1 calls are forms', async () => {
    const reply = await post(gw, '/v1/test/echo', JSON.stringify(auth), { 'content-type': 'application/json' });
    expect(JSON.parse(reply.text).error).toEqual({ code: 300, message: expect.stringContaining('Unsupported Content-Type') });
  });

  it('refuses a malformed multipart body', async () => {
    const reply = await post(gw, '/v1/test/echo', '--nope\r\ngarbage', { 'content-type': 'multipart/form-data; boundary=xyz' });
    expect(JSON.parse(reply.text).error).toEqual({ code: 300, message: expect.stringContaining('multipart') });
  });

  it('answers bytes that are no HTTP request with a v1 error envelope, not a bare reset', async () => {
    const reply = await rawExchange(gw.port, 'HELLO THERE\r\n\r\n');
    expect(reply.responses[0]!.status).toBe(400);
    expect(JSON.parse(reply.responses[0]!.body).error.code).toBe(300);
  });

  it('refuses GET: v1 calls are POSTs', async () => {
    const reply = await fetch(`${gw.url}/v1/user/checkemail?${form}&email=a@b.c`);
    expect(await reply.json()).toEqual({ error: { code: 300, message: 'v1 calls are POST requests, not GET.' } });
  });

  it('answers an unknown endpoint with a v1 error', async () => {
    expect(await gw.v1('/user/teleport', {})).toEqual({ error: { code: 300, message: 'Unknown v1 endpoint: /v1/user/teleport.' } });
  });
});

describe('credentials', () => {
  it('answers 101 when api_key or api_secret is missing, and calls no v2', async () => {
    const reply = await gw.v1Raw('/user/checkemail', { email: 'a@b.c', api_key: auth.api_key }, { noCredentials: true });
    expect(reply.body).toEqual({ error: { code: 101, message: 'Api key and secret are required.' } });
    expect(reply.headers.get('x-v2-calls')).toBe('0');
  });

  it('answers 102 when the key and secret do not match', async () => {
    expect(await gw.v1('/user/checkemail', { email: 'a@b.c', api_secret: 'wrong' })).toEqual({
      error: { code: 102, message: 'Invalid api key or secret: the api_key and api_secret do not match.' },
    });
  });

  it('answers 102 for a key outside ALLOWED_API_KEYS, and calls no v2', async () => {
    const reply = await small.v1Raw('/user/checkemail', { email: 'a@b.c' });
    expect(reply.body.error.code).toBe(102);
    expect(reply.headers.get('x-v2-calls')).toBe('0');
  });
});
