import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { owned } from '../../src/gateway/owned.js';
import { ROUTE_OWNERS, ROUTES } from '../../src/shared/route-owners.js';
import { startFakeV1 } from '../support/fake-v1.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

/**
 * The route table (src/shared/route-owners.ts) is the one owner of the gateway's paths: every
 * route a part registers lies under a prefix the table gives that part (a part that strays fails
 * the build), every prefix of the table is served by its part, and a path under none of them is
 * answered as the gateway answers any path it does not serve.
 */
let gw: TestGateway;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'v1gate-route-owners-'));
  writeFileSync(join(dir, 'subs.json'), JSON.stringify([{ api_key: 'k', url: 'http://127.0.0.1:9/hook', account_id: 'a' }]));
  gw = await startTestGateway({
    V1_WEBHOOKS_FILE: join(dir, 'subs.json'),
    V1_WEBHOOKS_JOURNAL: join(dir, 'journal'),
    V1_WEBHOOKS_ANY_PORT: '1',
    V2_WEBHOOK_SECRET_TOKEN: 'route-owners-secret-token',
  });
});
afterAll(() => gw?.close());

/** The gateway's own middleware for every path (the drain guard, the v1 facade's one route) aside. */
const partRoutes = () => gw.routes.filter(({ path }) => path !== '*' && path !== '/*');

describe('the route table', () => {
  it('owns every route the mounted parts registered', () => {
    expect(partRoutes().length).toBeGreaterThan(150);
    const strays = partRoutes().filter(({ path }) => ROUTES.ownerOf(path) === undefined);
    expect(strays).toEqual([]);
  });

  it('has each of its prefixes served by its part (v1 and shadow mode match theirs by hand; shadow mode is off here)', () => {
    const served = new Set(partRoutes().map(({ path }) => ROUTES.nameOf(path)));
    const expected = Object.entries(ROUTE_OWNERS)
      .filter(([, row]) => row.part !== 'v1' && row.part !== 'shadow')
      .map(([name]) => name);
    expect([...served].sort()).toEqual(expected.sort());
  });

  it('leaves a path under no prefix to the not-found answer, in the v1 envelope with a 404', async () => {
    for (const path of ['/nothing', '/v1x/user/get', '/statuses', '/webhooksx/v2']) {
      expect(ROUTES.ownerOf(path), path).toBeUndefined();
      const response = await fetch(`${gw.url}${path}`, { method: 'POST' });
      expect(response.status, path).toBe(404);
      expect(await response.json(), path).toEqual({ error: { code: 300, message: `Unknown path: ${path}.` } });
    }
  });

  it('answers a path under a prefix of calls that no route serves with v1 200, and the prefix itself with a 404', async () => {
    const unknown = await fetch(`${gw.url}/sdk/nothing`, { method: 'POST' });
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toEqual({ error: { code: 300, message: 'Unknown path: /sdk/nothing.' } });
    for (const path of ['/v1', '/v1/', '/sdk', '/sdk/']) {
      expect((await fetch(`${gw.url}${path}`, { method: 'POST' })).status, path).toBe(404);
    }
  });
});

describe('a part', () => {
  it('is mounted when its every route lies under its own prefixes', () => {
    const ops = new Hono();
    ops.get('/healthz', (c) => c.text('ok'));
    ops.get('/status/data', (c) => c.text('ok'));
    expect(owned('ops', ops)).toBe(ops);
  });

  it('fails the build when it answers a path the table gives another part, or none', () => {
    const strays = new Hono();
    strays.post('/webhooks/v2', (c) => c.text('mine'));
    expect(() => owned('ops', strays)).toThrow('The ops part answers POST /webhooks/v2, which the route table gives webhooks.');
    const unowned = new Hono();
    unowned.get('/statuz', (c) => c.text('ok'));
    expect(() => owned('ops', unowned)).toThrow('The ops part answers GET /statuz, which the route table gives no part.');
  });

  it('answers every path with one route only if it matches its paths by hand, as the table says', () => {
    const everything = new Hono();
    everything.all('*', (c) => c.text('all'));
    expect(() => owned('v1', everything)).not.toThrow();
    expect(() => owned('signer', everything)).toThrow('The signer part answers ALL /*, which the route table gives no part.');
  });
});

describe('in shadow mode', () => {
  let fake: Awaited<ReturnType<typeof startFakeV1>>;
  let shadowed: TestGateway;
  beforeAll(async () => {
    fake = await startFakeV1();
    shadowed = await startTestGateway({ V1_PRIMARY_URL: fake.url });
  });
  afterAll(async () => {
    await shadowed?.close();
    await fake?.close();
  });

  it('forwards the paths the table says are v1 calls, in any case, and its report answers under its own prefix', async () => {
    const call = await fetch(`${shadowed.url}/V1/User/CheckEmail`, { method: 'POST', body: 'api_key=k&api_secret=s&email=a@b.c' });
    expect(call.status).toBe(200);
    expect(fake.requests.map((request) => request.path)).toContain('/V1/User/CheckEmail');
    const report = await fetch(`${shadowed.url}/shadow/report.json`);
    expect(report.status).toBe(200);
    expect(ROUTES.nameOf('/shadow/report.json')).toBe('shadowReport');
    expect(shadowed.routes.filter(({ path }) => path !== '*' && path !== '/*' && ROUTES.ownerOf(path) === undefined)).toEqual([]);
  });

  it('answers /v1 and /v1/, which name no call, as the gateway without shadow mode does, and sends the primary nothing', async () => {
    const before = fake.requests.length;
    for (const path of ['/v1', '/v1/']) {
      const response = await fetch(`${shadowed.url}${path}`, { method: 'POST' });
      expect(response.status, path).toBe(404);
      expect(await response.json(), path).toEqual({ error: { code: 300, message: `Unknown path: ${path}.` } });
    }
    expect(fake.requests.length).toBe(before);
  });
});
