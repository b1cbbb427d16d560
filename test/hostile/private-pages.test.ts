import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GatewayMetrics } from '../../src/ops/metrics.js';
import { StatusCsrf } from '../../src/ops/status-csrf.js';
import { mountStatusPage } from '../../src/ops/status.js';
import { createRateLimiters, rateLimitConfig } from '../../src/ratelimit/index.js';
import { PrivateAccess } from '../../src/shared/private-access.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { startGatewayProcess } from '../support/process-gateway.js';

/**
 * The private pages judge the request, not the socket: a same-host proxy connects from loopback on
 * behalf of the world, and a page the operator opens reaches loopback by DNS rebinding with its own
 * name as Host. Every request here is a real one on a loopback socket, its Host and forwarding
 * headers written as an attacker or a proxy would write them (node:http sends Host as given).
 */

const STATUS_TOKEN = 'private-pages-status-token';
const METRICS_TOKEN = 'private-pages-metrics-token';
const WEBHOOK_TOKEN = 'private-pages-webhook-token';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request on a fresh connection from `localAddress` (a loopback address), Host exactly as given. */
function ask(
  port: number,
  options: { method?: string; path: string; host?: string; headers?: Record<string, string>; localAddress?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        agent: false,
        localAddress: options.localAddress ?? '127.0.0.1',
        headers: { host: options.host ?? `localhost:${port}`, ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * The routes no private-page rule applies to: the v1 and v2 APIs, OAuth, the signer, the probes, the
 * event intake, and recording files (the sandbox's behind v2's bearer check, v1gate's own signed links).
 */
const PUBLIC = [
  /^\/v1(\/|$)/,
  /^\/v2(\/|$)/,
  /^\/oauth(\/|$)/,
  /^\/sdk\/signature$/,
  /^\/healthz$/,
  /^\/readyz$/,
  /^\/webhooks\/v2$/,
  /^\/rec\/download(\/|$)/,
  /^\/downloads(\/|$)/,
];

/** Every route and middleware path of the app that is not public, as a request a rebinding page could make. */
function privateRoutes(gw: TestGateway): { method: string; path: string }[] {
  const seen = new Set<string>();
  const routes: { method: string; path: string }[] = [];
  for (const route of gw.routes) {
    if (route.path === '/*' || PUBLIC.some((p) => p.test(route.path))) continue;
    const method = route.method === 'ALL' ? 'GET' : route.method;
    const path = route.path.replace(/:[^/]+/g, 'x').replace(/\*$/, 'x');
    if (seen.has(`${method} ${path}`)) continue;
    seen.add(`${method} ${path}`);
    routes.push({ method, path });
  }
  return routes;
}

let gw: TestGateway;
let proxied: TestGateway;
let tokened: TestGateway;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'v1gate-private-pages-'));
  writeFileSync(join(dir, 'subs.json'), JSON.stringify([{ api_key: 'k', url: 'http://127.0.0.1:9/hook' }]));
  gw = await startTestGateway({
    METRICS_TOKEN,
    PRIVATE_HOSTS: 'status.internal.example,10.0.0.0/8,fd00::/8',
    V1_WEBHOOKS_FILE: join(dir, 'subs.json'),
    V1_WEBHOOKS_JOURNAL: join(dir, 'journal'),
    V2_WEBHOOK_SECRET_TOKEN: WEBHOOK_TOKEN,
    V1_WEBHOOKS_ANY_PORT: '1',
  });
  // A proxy on this host, at 127.0.0.2: the loopback address the tests connect from otherwise is not trusted.
  proxied = await startTestGateway({ TRUSTED_PROXIES: '127.0.0.2/32' });
  tokened = await startTestGateway({ STATUS_TOKEN, PRIVATE_HOSTS: 'status.internal.example:8443,ops.example' });
}, 60_000);
afterAll(async () => {
  await gw?.close();
  await proxied?.close();
  await tokened?.close();
});

describe('the Host of a private page', () => {
  it('is refused with 403 on every private route of the app when it is a foreign name (DNS rebinding)', async () => {
    const routes = privateRoutes(gw);
    // The enumeration found the private pages of every part, so a new one is tested as soon as it exists.
    for (const expected of [
      'GET /status',
      'GET /status/data',
      'POST /status/dead-letters/x/replay',
      'GET /metrics',
      'GET /sandbox/accounts',
    ]) {
      expect(routes.map((r) => `${r.method} ${r.path}`)).toContain(expected);
    }
    expect(routes.some((r) => r.path.startsWith('/webhooks/dead-letters'))).toBe(true);
    expect(routes.length).toBeGreaterThan(25);
    for (const route of routes) {
      for (const host of [`evil.example:${gw.port}`, 'evil.example', 'localhost.evil.example', '127.0.0.1.nip.io']) {
        const answer = await ask(gw.port, { ...route, host, headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
        expect(answer.status, `${route.method} ${route.path} Host ${host}`).toBe(403);
        expect(answer.body, `${route.method} ${route.path}`).toContain('localhost or PRIVATE_HOSTS');
        expect(answer.body).not.toContain(gw.credentials.api_secret);
      }
    }
  });

  it("is refused on the embedded sandbox's own loopback listener too, where the gateway calls v2", async () => {
    // The gateway subscribes its intake on that listener to the sandbox's events: its address is there.
    const { subscriptions } = JSON.parse((await ask(gw.port, { path: '/sandbox/event-subscriptions' })).body) as {
      subscriptions: { url: string }[];
    };
    const port = Number(new URL(subscriptions[0]!.url).port);
    expect(port).not.toBe(gw.port);
    for (const route of [
      { path: '/sandbox/accounts' },
      { method: 'POST', path: '/sandbox/meetings/x/start' },
      { path: '/webhooks/dead-letters', headers: { authorization: WEBHOOK_TOKEN } },
    ]) {
      const refused = await ask(port, { ...route, host: `evil.example:${port}` });
      expect(refused.status, route.path).toBe(403);
      expect(refused.body).not.toContain(gw.credentials.api_secret);
    }
    expect((await ask(port, { path: '/sandbox/accounts', host: `127.0.0.1:${port}` })).status).toBe(200);
  });

  it(
    "is refused on a cluster's hub (WORKERS=2), the primary's loopback listener the workers forward the sandbox to",
    { timeout: 90_000 },
    async () => {
      // A proxy on this host, at 127.0.0.2: what it forwards for a loopback client the workers pass on to the hub.
      const cluster = await startGatewayProcess({ WORKERS: '2', TRUSTED_PROXIES: '127.0.0.2/32' }, { startTimeoutMs: 60_000 });
      try {
        // The primary names the hub's origin on the line after the one the process helper waits for.
        const hubPort = await vi.waitFor(
          () => Number(/upstream v2: http:\/\/127\.0\.0\.1:(\d+)\/v2 \(embedded sandbox/.exec(cluster.output())![1]),
          {
            timeout: 10_000,
          },
        );
        const port = Number(new URL(cluster.url).port);
        expect(hubPort).toBeGreaterThan(0);
        expect(hubPort).not.toBe(port);
        for (const route of [{ path: '/sandbox/accounts' }, { method: 'POST', path: '/sandbox/meetings/x/start' }]) {
          for (const host of ['evil.example', `evil.example:${hubPort}`]) {
            const refused = await ask(hubPort, { ...route, host });
            expect(refused.status, `${route.path} Host ${host}`).toBe(403);
            expect(refused.body).toContain('localhost or PRIVATE_HOSTS');
            expect(refused.body).not.toMatch(/"api_secret":"[^"]/);
          }
        }
        const served = await ask(hubPort, { path: '/sandbox/accounts', host: `127.0.0.1:${hubPort}` });
        expect(served.status).toBe(200);
        expect(served.body).toMatch(/"api_secret":"[^"]/);
        // A caller the hub cannot see behind a loopback process is still refused by what it forwards.
        expect(
          (await ask(hubPort, { path: '/sandbox/accounts', host: `127.0.0.1:${hubPort}`, headers: { 'x-forwarded-for': '203.0.113.7' } }))
            .status,
        ).toBe(403);
        // What a worker lets through, the hub serves: directly, and through the trusted proxy for a loopback client.
        expect((await ask(port, { path: '/sandbox/accounts' })).status).toBe(200);
        const proxied = { path: '/sandbox/accounts', localAddress: '127.0.0.2', headers: { 'x-forwarded-for': '127.0.0.1' } };
        expect((await ask(port, proxied)).status).toBe(200);
        expect((await ask(port, { ...proxied, headers: { 'x-forwarded-for': '203.0.113.7' } })).status).toBe(403);
      } finally {
        await cluster.kill();
      }
    },
  );

  it(
    'is refused by the sandbox served alone (npm run sandbox), unless SANDBOX_PUBLIC=1 opens its control API',
    { timeout: 90_000 },
    async () => {
      for (const open of [false, true]) {
        const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/sandbox.ts'], {
          cwd: join(import.meta.dirname, '../..'),
          env: { ...process.env, PORT: '0', SANDBOX_PUBLIC: open ? '1' : '0' },
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        try {
          const port = await new Promise<number>((resolve, reject) => {
            let output = '';
            child.stdout.on('data', (chunk: Buffer) => {
              output += chunk.toString();
              const at = /on http:\/\/[^:]+:(\d+)\/v2/.exec(output);
              if (at) resolve(Number(at[1]));
            });
            child.once('exit', () => reject(new Error(`the sandbox stopped before it listened: ${output}`)));
          });
          const foreign = await ask(port, { path: '/sandbox/accounts', host: `evil.example:${port}` });
          expect(foreign.status, `SANDBOX_PUBLIC=${open}`).toBe(open ? 200 : 403);
          expect(foreign.body).not.toMatch(/"api_secret":"[^"]/);
          const forwarded = await ask(port, { path: '/sandbox/accounts', headers: { 'x-forwarded-for': '203.0.113.7' } });
          expect(forwarded.status).toBe(open ? 200 : 403);
          expect((await ask(port, { path: '/sandbox/accounts', host: `127.0.0.1:${port}` })).status).toBe(200);
        } finally {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGTERM');
          await exited;
        }
      }
    },
  );

  it('is answered when it is an address inside a CIDR of PRIVATE_HOSTS, as a pod address is when Prometheus scrapes it', async () => {
    const scrape = (host: string, token = METRICS_TOKEN) =>
      ask(gw.port, { path: '/metrics', host, headers: { authorization: `Bearer ${token}` } }).then((a) => a.status);
    for (const host of ['10.12.0.7:8080', '10.255.255.255', '[fd00::7]:8080']) expect(await scrape(host), host).toBe(200);
    // Outside the CIDR, a name that only starts like an address, or the right Host without the token: refused.
    for (const host of ['11.0.0.1:8080', '[fe80::1]:8080', '10.0.0.1.evil.example', '10.0.0.0/8'])
      expect(await scrape(host), host).toBe(403);
    expect(await scrape('10.12.0.7:8080', 'not-the-token-at-all')).toBe(401);
  });

  it('is answered when it is a loopback name, with or without its port, or one of PRIVATE_HOSTS', async () => {
    for (const host of [
      'localhost',
      `localhost:${gw.port}`,
      '127.0.0.1',
      `127.0.0.1:${gw.port}`,
      '[::1]',
      `[::1]:${gw.port}`,
      'LOCALHOST',
    ]) {
      expect((await ask(gw.port, { path: '/status/data', host })).status, host).toBe(200);
    }
    expect((await ask(gw.port, { path: '/status', host: 'status.internal.example' })).status).toBe(200);
    expect((await ask(gw.port, { path: '/status', host: `status.internal.example:${gw.port}` })).status).toBe(200);
    // An entry with a port names that port only.
    expect(
      (
        await ask(tokened.port, {
          path: '/status',
          host: 'status.internal.example:8443',
          headers: { authorization: `Bearer ${STATUS_TOKEN}` },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await ask(tokened.port, {
          path: '/status',
          host: 'status.internal.example:80',
          headers: { authorization: `Bearer ${STATUS_TOKEN}` },
        })
      ).status,
    ).toBe(403);
  });

  it('leaves the public routes alone', async () => {
    expect((await ask(gw.port, { path: '/healthz', host: 'evil.example' })).status).toBe(200);
    const v1 = await ask(gw.port, { method: 'POST', path: '/v1/user/list', host: 'api.example.com' });
    expect(v1.status).not.toBe(403);
  });
});

describe('a forwarded request', () => {
  const FORWARDS: Record<string, string>[] = [
    { 'x-forwarded-for': '203.0.113.7' },
    { 'x-forwarded-for': '127.0.0.1' },
    { forwarded: 'for=127.0.0.1' },
    { 'x-real-ip': '127.0.0.1' },
    { 'x-forwarded-host': 'localhost' },
    { via: '1.1 nginx' },
  ];

  it('is refused with 403 from a peer that is no trusted proxy, whatever client it names', async () => {
    for (const headers of FORWARDS) {
      for (const path of ['/status', '/status/data', '/sandbox/accounts', '/metrics']) {
        const answer = await ask(gw.port, { path, headers: { ...headers, authorization: `Bearer ${METRICS_TOKEN}` } });
        expect(answer.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(answer.body).toContain('TRUSTED_PROXIES');
      }
      // 127.0.0.1 is loopback, but not the proxy this gateway trusts.
      expect((await ask(proxied.port, { path: '/status', headers })).status).toBe(403);
    }
    // Without the forwarding header, the same socket is a loopback caller.
    expect((await ask(gw.port, { path: '/status' })).status).toBe(200);
  });

  it('through a trusted proxy, is judged by the client the proxy names: a loopback one is answered', async () => {
    const viaProxy = (headers: Record<string, string>, path = '/status/data') =>
      ask(proxied.port, { path, headers, localAddress: '127.0.0.2' });
    expect((await viaProxy({ 'x-forwarded-for': '127.0.0.1' })).status).toBe(200);
    expect((await viaProxy({ 'x-forwarded-for': '::1', 'x-real-ip': '::1' })).status).toBe(200);
    expect((await viaProxy({ forwarded: 'for="[::1]:4711";proto=http' })).status).toBe(200);
    expect((await viaProxy({ 'x-forwarded-for': '127.0.0.1' }, '/sandbox/accounts')).status).toBe(200);
    // A chain read from its right end, past the trusted proxies: the client is what the first proxy saw.
    expect((await viaProxy({ 'x-forwarded-for': '127.0.0.1, 127.0.0.2' })).status).toBe(200);
  });

  it('through a trusted proxy, from a client elsewhere, is refused with 403 without a token', async () => {
    const viaProxy = (headers: Record<string, string>, path = '/status/data') =>
      ask(proxied.port, { path, headers, localAddress: '127.0.0.2' });
    for (const headers of [
      { 'x-forwarded-for': '203.0.113.7' },
      // What the client wrote itself is on the left; the proxy appended what it saw.
      { 'x-forwarded-for': '127.0.0.1, 203.0.113.7' },
      { forwarded: 'for=203.0.113.7' },
      { 'x-real-ip': '203.0.113.7' },
      // Two headers that disagree, or none that names the client: no client to judge.
      { 'x-forwarded-for': '127.0.0.1', 'x-real-ip': '203.0.113.7' },
      { 'x-forwarded-proto': 'https' },
      { 'x-forwarded-for': 'unknown' },
    ] as Record<string, string>[]) {
      for (const path of ['/status', '/status/data', '/sandbox/accounts']) {
        const answer = await viaProxy(headers, path);
        expect(answer.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(answer.body).toContain('callers on this machine only');
      }
    }
    // The proxy's own request, forwarding nothing: a loopback caller.
    expect((await viaProxy({})).status).toBe(200);
  });
});

describe('the bearer token', () => {
  it('opens /status and its data to a remote operator, and nothing else does', async () => {
    const bearer = { authorization: `Bearer ${STATUS_TOKEN}` };
    expect((await ask(tokened.port, { path: '/status', host: 'ops.example', headers: bearer })).status).toBe(200);
    expect((await ask(tokened.port, { path: `/status/data?token=${STATUS_TOKEN}`, host: 'ops.example' })).status).toBe(200);
    expect((await ask(tokened.port, { path: '/status/data', host: 'ops.example' })).status).toBe(401);
    expect(
      (await ask(tokened.port, { path: '/status/data', headers: { authorization: 'Bearer private-pages-status-tokeX' } })).status,
    ).toBe(401);
    // The token does not make a foreign Host or an untrusted proxy's request one to answer.
    expect((await ask(tokened.port, { path: '/status', host: 'evil.example', headers: bearer })).status).toBe(403);
    expect((await ask(tokened.port, { path: '/status', headers: { ...bearer, 'x-forwarded-for': '203.0.113.7' } })).status).toBe(403);
  });

  it('opens /metrics when METRICS_TOKEN is set, and /metrics stays open when it is not', async () => {
    expect((await ask(gw.port, { path: '/metrics' })).status).toBe(401);
    expect((await ask(gw.port, { path: '/metrics', headers: { authorization: `Bearer ${STATUS_TOKEN}` } })).status).toBe(401);
    const scraped = await ask(gw.port, {
      path: '/metrics',
      host: 'status.internal.example',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(scraped.status).toBe(200);
    expect(scraped.body).toContain('# TYPE');
    expect((await ask(proxied.port, { path: '/metrics', host: '10.0.0.5:8080' })).status).toBe(200);
  });
});

describe("the sandbox's secrets", () => {
  type Accounts = { accounts: { api_secret?: string; oauth_apps: { client_secret?: string }[] }[]; secrets?: string };

  it('are listed to a request from this machine itself: loopback socket, no proxy, loopback Host', async () => {
    const answer = await ask(gw.port, { path: '/sandbox/accounts' });
    expect(answer.status).toBe(200);
    const body = JSON.parse(answer.body) as Accounts;
    expect(body.accounts[0]!.api_secret).toBe(gw.credentials.api_secret);
    expect(body.accounts[0]!.oauth_apps[0]!.client_secret).toBe(gw.sandbox.oauthApp.clientSecret);
  });

  it('are left out for a request through a proxy, to a configured name, or to anyone with SANDBOX_PUBLIC=1', async () => {
    const open = await startTestGateway({ SANDBOX_PUBLIC: '1' });
    try {
      const answers = [
        await ask(proxied.port, { path: '/sandbox/accounts', headers: { 'x-forwarded-for': '127.0.0.1' }, localAddress: '127.0.0.2' }),
        await ask(gw.port, { path: '/sandbox/accounts', host: 'status.internal.example' }),
        await ask(open.port, { path: '/sandbox/accounts', host: 'sandbox.example' }),
        await ask(open.port, { path: '/sandbox/accounts', headers: { 'x-forwarded-for': '203.0.113.7' } }),
      ];
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        const body = JSON.parse(answer.body) as Accounts;
        expect(body.accounts.length).toBeGreaterThan(0);
        expect(body.accounts[0]).not.toHaveProperty('api_secret');
        expect(body.accounts[0]!.oauth_apps[0]).not.toHaveProperty('client_secret');
        expect(body.secrets).toContain('listed only to a request from this machine');
        for (const secret of [gw.credentials.api_secret, gw.sandbox.oauthApp.clientSecret, open.credentials.api_secret]) {
          expect(answer.body).not.toContain(secret);
        }
      }
    } finally {
      await open.close();
    }
  });
});

describe("the replay's anti-forgery token", () => {
  const cookieOf = (answer: Answer) => String(answer.headers['set-cookie'] ?? '').split(';')[0]!;
  const replay = (port: number, csrf: string, cookie: string | undefined) =>
    ask(port, {
      method: 'POST',
      path: '/status/dead-letters/nope/replay',
      headers: { 'x-v1gate-csrf': csrf, ...(cookie ? { cookie } : {}) },
    });

  it('is good with its own session only, sent back with SameSite=Strict', async () => {
    const one = await ask(gw.port, { path: '/status/data' });
    const two = await ask(gw.port, { path: '/status/data' });
    expect(String(one.headers['set-cookie'])).toMatch(/^v1gate_status_session=[\w-]{22}; Path=\/status; HttpOnly; SameSite=Strict$/);
    const [csrfOne, csrfTwo] = [one, two].map((a) => (JSON.parse(a.body) as { csrf: string }).csrf);
    // The page's own: past the token (this journal has no such dead letter).
    expect((await replay(gw.port, csrfOne!, cookieOf(one))).status).toBe(404);
    for (const [csrf, cookie] of [
      [csrfOne!, cookieOf(two)],
      [csrfTwo!, cookieOf(one)],
      [csrfOne!, undefined],
      [`${csrfOne!.split('.')[0]}.${'A'.repeat(43)}`, cookieOf(one)],
    ] as const) {
      const refused = await replay(gw.port, csrf, cookie);
      expect(refused.status).toBe(403);
      expect(refused.body).toContain('missing, expired or of another session');
    }
  });

  it('is refused once expired, and by a process that did not mint it', async () => {
    let now = 1_000_000;
    const csrf = new StatusCsrf(600, () => now);
    const root = new Hono();
    const limiters = createRateLimiters(rateLimitConfig());
    const page = mountStatusPage(root, {
      metrics: new GatewayMetrics({ perKey: undefined, processMetrics: false }),
      readiness: {
        draining: () => false,
        limiterStoreReachable: async () => true,
        limiterFailurePolicy: undefined,
        upstreamUrl: 'http://127.0.0.1:9/v2',
        deadlineMs: 50,
      },
      endpoints: [],
      token: undefined,
      access: new PrivateAccess({ hosts: [], trustedProxies: [] }),
      csrf,
      redisConfigured: false,
      limits: { limiters, v1Enabled: true, v2Enabled: true, store: 'memory', failover: undefined, policy: undefined },
      webhooks: {
        stats: () => ({ deliveries: 0, retries: 0, deadLetters: 0, journalDepth: 0, receiverQueueDepth: {} }),
        deadLetters: async () => [],
        replay: async () => false,
      },
    });
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const s = serve({ fetch: root.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    const port = (server.address() as AddressInfo).port;
    try {
      const data = await ask(port, { path: '/status/data' });
      const token = (JSON.parse(data.body) as { csrf: string }).csrf;
      now += 600;
      expect((await replay(port, token, cookieOf(data))).status).toBe(404);
      now += 1;
      expect((await replay(port, token, cookieOf(data))).status).toBe(403);
      // A fresh poll of the same session gives a fresh token.
      const again = await ask(port, { path: '/status/data', headers: { cookie: cookieOf(data) } });
      expect(again.headers['set-cookie']).toBeUndefined();
      expect((await replay(port, (JSON.parse(again.body) as { csrf: string }).csrf, cookieOf(data))).status).toBe(404);
      // The gateway's key is not this page's: its token, with its cookie, is refused here.
      const other = await ask(gw.port, { path: '/status/data' });
      expect((await replay(port, (JSON.parse(other.body) as { csrf: string }).csrf, cookieOf(other))).status).toBe(403);
    } finally {
      page.close();
      await limiters.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
