import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { httpRequest, rawExchange } from '../support/raw-http.js';

/**
 * Request targets as an attacker writes them: absolute-form (`POST http://host/v1/...`, as sent to
 * a proxy) under the same path rules as origin-form, pipelined absolute-form writes on a
 * connection that closes, and targets the request adaptor cannot read at all (`POST *`, a
 * backslash in the path): every answer a v1 envelope, the connection closed where it must be.
 */
let gw: TestGateway;
let form: string;
beforeAll(async () => {
  gw = await startTestGateway();
  form = new URLSearchParams({ ...gw.credentials, email: 'owner@sandbox.v1gate.local' }).toString();
});
afterAll(() => gw.close());

const groupsNamed = async (name: string) =>
  ((await gw.v2('GET', '/groups')).body.groups as { name: string }[]).filter((g) => g.name === name).length;

describe('absolute-form targets', () => {
  it('reach their v1 endpoint, whatever host and port they name', async () => {
    for (const target of ['http://x/v1/user/checkemail', 'https://x:99999/v1//user%2Fcheckemail', 'HTTP://[::1]/v1/user/checkemail?a=1']) {
      const reply = await rawExchange(
        gw.port,
        httpRequest({ path: target, body: form, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }),
      );
      expect(JSON.parse(reply.responses[0]!.body), target).toEqual({ existed_email: true });
    }
  });

  it('never reach another API through dot segments', async () => {
    for (const target of [
      'http://x/v1/%2e%2e/v2/users/me',
      'http://x/v1/../v2/users/me',
      'http://x/v1/./user/checkemail',
      'http://x:99999/v1/%2E./sandbox/accounts',
    ]) {
      const reply = await rawExchange(gw.port, httpRequest({ method: 'GET', path: target, headers: { Connection: 'close' } }));
      expect(reply.responses[0], target).toMatchObject({ status: 200 });
      expect(JSON.parse(reply.responses[0]!.body), target).toEqual({
        error: { code: 300, message: 'Invalid path: a path may not contain "." or ".." segments.' },
      });
    }
  });

  it('pipelined behind one that closes the connection are not run (keep-alive off, the default)', async () => {
    const name = `absolute-${Date.now()}`;
    const creds = new URLSearchParams(gw.credentials).toString();
    const first = httpRequest({ path: `http://x/v1/group/create`, body: `${creds}&name=${name}-a` });
    const second = httpRequest({ path: `http://x/v1/group/create`, body: `${creds}&name=${name}-b` });
    const reply = await rawExchange(gw.port, Buffer.concat([first, second]));
    expect(reply.closedByServer).toBe(true);
    expect(reply.responses).toHaveLength(1);
    expect(JSON.parse(reply.responses[0]!.body)).toMatchObject({ name: `${name}-a` });
    expect(await groupsNamed(`${name}-a`)).toBe(1);
    expect(await groupsNamed(`${name}-b`)).toBe(0);
  });
});

describe('targets the request adaptor cannot read', () => {
  // Node's parser refuses some itself (a target with no leading slash); the adaptor the others.
  it('get a 400 v1 envelope and a closed connection, never an empty 400', async () => {
    for (const [method, target] of [
      ['POST', '*'],
      ['OPTIONS', '*'],
      ['GET', '/v1\\user\\get'],
      ['POST', '/v1/user\\checkemail'],
      ['POST', 'v1/user/checkemail'],
    ] as const) {
      const reply = await rawExchange(gw.port, httpRequest({ method, path: target, body: form }));
      const context = `${method} ${target}`;
      expect(reply.closedByServer, context).toBe(true);
      expect(reply.responses, context).toHaveLength(1);
      expect(reply.responses[0]!.status, context).toBe(400);
      expect(JSON.parse(reply.responses[0]!.body), context).toEqual({
        error: { code: 300, message: expect.stringMatching(/^Malformed (request target|HTTP request)/) },
      });
    }
  });

  it('a Host header with a port no host can have is ignored, as any malformed Host is', async () => {
    const head = [
      'POST /v1/user/checkemail HTTP/1.1',
      'Host: x:99999',
      'Content-Type: application/x-www-form-urlencoded',
      `Content-Length: ${form.length}`,
    ];
    const reply = await rawExchange(gw.port, `${head.join('\r\n')}\r\n\r\n${form}`);
    expect(JSON.parse(reply.responses[0]!.body)).toEqual({ existed_email: true });
  });
});
