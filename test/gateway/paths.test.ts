import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeRequestTarget } from '../../src/http/server.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { httpRequest, rawExchange } from '../support/raw-http.js';

/**
 * Request paths are normalised once, before any routing: the spellings of legacy clients reach
 * their v1 endpoint, no spelling of a /v1 path reaches another API, and whatever matches nothing
 * answers the v1 envelope under /v1 (with v1's 200) and elsewhere (with a 404); /v1 itself, which
 * names no endpoint, is such an elsewhere.
 */
let gw: TestGateway;
let form: string;
const post = async (path: string) => {
  const reply = await rawExchange(gw.port, httpRequest({ path, body: form }));
  return { status: reply.responses[0]!.status, body: JSON.parse(reply.responses[0]!.body) as unknown };
};

beforeAll(async () => {
  gw = await startTestGateway();
  form = new URLSearchParams({ ...gw.credentials, email: 'owner@sandbox.v1gate.local' }).toString();
});
afterAll(() => gw.close());

describe('request paths', () => {
  it('reach the endpoint with doubled slashes and an encoded slash, as concatenating clients send them', async () => {
    for (const path of [
      '//v1/user/checkemail',
      '/v1//user/checkemail',
      '/v1/user%2Fcheckemail',
      '/v1/user%2fcheckemail/',
      '//V1//User//CheckEmail?x=1',
    ]) {
      expect(await post(path), path).toEqual({ status: 200, body: { existed_email: true } });
    }
  });

  it('never reach another API through dot segments, plain or encoded', async () => {
    for (const path of [
      '/v1/../v2/users/me',
      '/v1/%2e%2e/v2/users/me',
      '/v1/%2E./v2/users/me',
      '/v1/./user/checkemail',
      '/v1/user/%2e/checkemail',
    ]) {
      expect(await post(path), path).toEqual({
        status: 200,
        body: { error: { code: 300, message: expect.stringMatching(/^Invalid path/) } },
      });
    }
  });

  it('answer the v1 envelope for a v1 path that matches nothing, and the same envelope with a 404 for any other path', async () => {
    expect(await post('/v1/nothing/here')).toEqual({
      status: 200,
      body: { error: { code: 300, message: expect.stringMatching(/^Unknown v1 endpoint/) } },
    });
    expect(await post('/nothing/here')).toEqual({ status: 404, body: { error: { code: 300, message: 'Unknown path: /nothing/here.' } } });
  });

  it('answer the root of /v1, which names no endpoint, 404 with the envelope for any method, as any path it does not serve', async () => {
    for (const path of ['/v1', '/v1/', '/V1/', '//v1//', '/v1/?api_key=x']) {
      for (const method of ['GET', 'POST', 'HEAD', 'OPTIONS']) {
        const response = await fetch(`${gw.url}${path}`, { method, ...(method === 'POST' ? { body: form } : {}) });
        expect(response.status, `${method} ${path}`).toBe(404);
        if (method === 'HEAD') continue;
        const bare = path.replace(/\?.*$/, '').replace(/\/+/g, '/');
        expect(await response.json(), `${method} ${path}`).toEqual({ error: { code: 300, message: `Unknown path: ${bare}.` } });
      }
    }
    // An endpoint's path keeps v1's answer whatever the method: a GET is told it is not a POST, with v1's 200.
    const get = await fetch(`${gw.url}/v1/user/checkemail`);
    expect(get.status).toBe(200);
    expect(await get.json()).toEqual({ error: { code: 300, message: 'v1 calls are POST requests, not GET.' } });
  });

  it('normalise the request target once, leaving the query alone', () => {
    expect(normalizeRequestTarget('//v1//user%2Fget?a=%2F//')).toBe('/v1/user/get?a=%2F//');
    expect(normalizeRequestTarget('/v2/users/a%2Fb')).toBe('/v2/users/a%2Fb');
    expect(normalizeRequestTarget('/v1/..')).toBeUndefined();
    expect(normalizeRequestTarget('/v1/...')).toBe('/v1/...');
    // A path with nothing to rewrite comes back as it is, whatever its query holds.
    expect(normalizeRequestTarget('/v1/user/get?next=/a//b/../c')).toBe('/v1/user/get?next=/a//b/../c');
    expect(normalizeRequestTarget('/v1/user/get.json')).toBe('/v1/user/get.json');
    expect(normalizeRequestTarget('/v1/user/.')).toBeUndefined();
    expect(normalizeRequestTarget('/v1/user/%2E%2e')).toBeUndefined();
  });
});
