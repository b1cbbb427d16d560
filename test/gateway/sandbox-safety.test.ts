import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

/**
 * The embedded sandbox's control API lists every api_secret and changes any account's state: it
 * answers callers on this machine only, unless SANDBOX_PUBLIC=1. (A caller elsewhere is simulated
 * by handing the app a socket with a non-loopback address: these tests may not leave loopback.)
 */
const from = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } });
let gw: TestGateway;
let open: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway();
  open = await startTestGateway({ SANDBOX_PUBLIC: '1' });
});
afterAll(async () => {
  await gw.close();
  await open.close();
});

describe('the sandbox control API', () => {
  it('answers a loopback caller (IPv4, IPv6, IPv4-mapped)', async () => {
    expect((await gw.control('GET', '/accounts')).status).toBe(200);
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      // Host as a client on this machine sends it (a Request made here has none: the socket adds it).
      const request = new Request(`${gw.url}/sandbox/accounts`, { headers: { host: 'localhost' } });
      expect((await gw.fetch(request, from(address))).status).toBe(200);
    }
  });

  it('refuses a caller on another machine, and leaks no secret', async () => {
    for (const address of ['203.0.113.9', '::ffff:10.1.2.3', '2001:db8::1']) {
      const response = await gw.fetch(new Request(`${gw.url}/sandbox/accounts`), from(address));
      expect(response.status).toBe(403);
      expect(await response.text()).not.toContain(gw.credentials.api_secret);
    }
    const start = await gw.fetch(new Request(`${gw.url}/sandbox/meetings/1/start`, { method: 'POST' }), from('203.0.113.9'));
    expect(start.status).toBe(403);
  });

  it('answers anyone with SANDBOX_PUBLIC=1', async () => {
    expect((await open.fetch(new Request(`${open.url}/sandbox/accounts`), from('203.0.113.9'))).status).toBe(200);
  });
});
