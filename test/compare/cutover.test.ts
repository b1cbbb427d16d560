import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startGateway, type RunningGateway } from '../../src/gateway.js';
import { ALL_ENDPOINTS } from '../../src/translators/endpoints.js';
import type { EndpointDefinition } from '../../src/translators/kit/define.js';
import { rememberSecret, testLogEnv } from '../support/gateway.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';
import { startRedis, type RunningRedis } from '../support/redis.js';
import { SecretsSeen } from '../support/secret-audit.js';

/**
 * The progressive cut-over of shadow mode, in front of a real primary process (a v1gate run as
 * `npm start` runs it, its sandbox the data both sides read): a read endpoint is promoted after
 * enough matching calls and then answered without the primary (but for a sample), one real
 * difference demotes it, writes are served only by name, and the states survive a restart.
 */

const KEY = 'cutover-test-key-01';
const SECRET = 'cutover-test-secret-0123456789abcdef';
const owner = 'owner@sandbox.v1gate.local';
const dir = mkdtempSync(join(tmpdir(), 'v1gate-cutover-'));
let primary: GatewayProcess;
let ownerId: string;

/** v1gate's /user/get, which answers `type` 99 while `flipped.type` is set: a mapping bug appearing after a promotion. */
const flipped = { type: false };
const endpoints: EndpointDefinition[] = ALL_ENDPOINTS.map((endpoint) =>
  endpoint.path === '/user/get'
    ? {
        ...endpoint,
        handle: async (params: unknown, ctx: Parameters<typeof endpoint.handle>[1]) => {
          const answer = await endpoint.handle(params, ctx);
          return flipped.type ? { ...answer, type: 99 } : answer;
        },
      }
    : endpoint,
);

/** v1gate in shadow mode in front of the primary, reading the primary's own sandbox. */
const startShadow = (env: Record<string, string>) =>
  startGateway(
    loadConfig({
      PORT: '0',
      V2_BASE_URL: `${primary.url}/v2`,
      V1_PRIMARY_URL: primary.url,
      V1_RATE_LIMITS: 'off',
      V2_RATE_LIMITS: 'off',
      ...testLogEnv(),
      ...env,
    }),
    { endpoints },
  );

const post = async (url: string, path: string, fields: Record<string, string>) => {
  const response = await fetch(`${url}/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ api_key: KEY, api_secret: SECRET, ...fields }),
  });
  return JSON.parse(await response.text()) as Record<string, unknown>;
};

/** v1 calls of `endpoint` the primary answered (its own /metrics). */
async function primaryCalls(endpoint: string): Promise<number> {
  const text = await (await fetch(`${primary.url}/metrics`)).text();
  const pattern = new RegExp(`^v1gate_v1_calls_total\\{endpoint="${endpoint.replace(/\//g, '\\/')}",code="[^"]*"\\} (\\d+)`, 'gm');
  return [...text.matchAll(pattern)].reduce((sum, match) => sum + Number(match[1]), 0);
}

const stateOf = (shadow: RunningGateway, endpoint: string) =>
  shadow.shadow!.stats().cutover!.endpoints.find((e) => e.endpoint === endpoint);

/** A read through the shadow, its comparison (and a sample's primary call) finished. */
async function userGet(shadow: RunningGateway) {
  const answer = await post(shadow.url, '/user/get', { id: ownerId });
  await shadow.shadow!.idle();
  return answer;
}

beforeAll(async () => {
  rememberSecret(SECRET);
  primary = await startGatewayProcess({
    SANDBOX_API_KEY: KEY,
    SANDBOX_API_SECRET: SECRET,
    SANDBOX_RATE_LIMITS: 'off',
    V1_RATE_LIMITS: 'off',
    V2_RATE_LIMITS: 'off',
    LOG_LEVEL: 'silent',
  });
  ownerId = String((await post(primary.url, '/user/getbyemail', { email: owner })).id);
}, 60_000);
afterAll(async () => {
  await primary?.stop();
});

describe('promotion', () => {
  it('promotes a read after SHADOW_PROMOTE_AFTER matching calls; then the primary is not called, and a restart keeps it promoted', async () => {
    const stateFile = join(dir, 'promoted.json');
    const env = { SHADOW_PROMOTE_AFTER: '3', SHADOW_PROMOTED_SAMPLE: '0', SHADOW_STATE_FILE: stateFile };
    let shadow = await startShadow(env);
    try {
      const before = await primaryCalls('/user/get');
      const direct = await post(primary.url, '/user/get', { id: ownerId });
      for (let i = 0; i < 3; i++) expect(await userGet(shadow)).toEqual(direct);
      expect(await primaryCalls('/user/get')).toBe(before + 4); // three forwarded, one direct
      expect(stateOf(shadow, '/user/get')).toMatchObject({ state: 'promoted', streak: 3 });
      // Promoted: v1gate answers, the primary hears nothing.
      for (let i = 0; i < 5; i++) expect(await userGet(shadow)).toEqual(direct);
      expect(await primaryCalls('/user/get')).toBe(before + 4);

      const metrics = await (await fetch(`${shadow.url}/metrics`)).text();
      expect(metrics).toContain('v1gate_shadow_endpoint_state{endpoint="/user/get",state="promoted"} 1');
      expect(metrics).toMatch(/v1gate_shadow_calls_total\{outcome="served"\} 5/);
      const status = (await (await fetch(`${shadow.url}/status/data`)).json()) as {
        sections: { id: string; rows: { label: string; value: string }[] }[];
      };
      const cutover = status.sections.find((s) => s.id === 'cutover')!;
      expect(cutover.rows.find((r) => r.label === '/user/get')!.value).toMatch(
        /^promoted since .*: v1gate answers, 3 compared calls in a row matched$/,
      );
      const report = (await (await fetch(`${shadow.url}/shadow/report.json`)).json()) as {
        cutover: { endpoints: { endpoint: string; state: string }[] };
      };
      expect(report.cutover.endpoints).toContainEqual(expect.objectContaining({ endpoint: '/user/get', state: 'promoted' }));
      expect(await (await fetch(`${shadow.url}/shadow/report`)).text()).toContain('<th>Cut-over</th>');
    } finally {
      await shadow.close();
    }
    expect(JSON.parse(readFileSync(stateFile, 'utf8'))).toMatchObject({
      primary: primary.url,
      endpoints: { '/user/get': { state: 'promoted' } },
    });
    // A restart takes the promotion up: the first call is v1gate's.
    shadow = await startShadow(env);
    try {
      const before = await primaryCalls('/user/get');
      await userGet(shadow);
      expect(await primaryCalls('/user/get')).toBe(before);
    } finally {
      await shadow.close();
    }
  });

  it("keeps comparing a promoted read's sample against the primary, and one real difference demotes it at once", async () => {
    const shadow = await startShadow({ SHADOW_PROMOTE_AFTER: '2', SHADOW_PROMOTED_SAMPLE: '1' });
    try {
      await userGet(shadow);
      await userGet(shadow);
      expect(stateOf(shadow, '/user/get')?.state).toBe('promoted');
      // The sample: v1gate answers, and the primary is asked too, after, for the comparison.
      const before = await primaryCalls('/user/get');
      await userGet(shadow);
      expect(await primaryCalls('/user/get')).toBe(before + 1);
      expect(stateOf(shadow, '/user/get')).toMatchObject({ state: 'promoted', streak: 3 });

      flipped.type = true;
      const broken = await userGet(shadow); // promoted: v1gate's (wrong) answer goes out, and its sample shows the difference
      expect(broken.type).toBe(99);
      expect(stateOf(shadow, '/user/get')).toMatchObject({ state: 'shadowing', streak: 0, lastDifference: { field: 'type' } });
      // Demoted: the primary answers again.
      const after = await userGet(shadow);
      expect(after.type).not.toBe(99);
      expect(await primaryCalls('/user/get')).toBe(before + 3);
      const report = await (await fetch(`${shadow.url}/shadow/report`)).text();
      expect(report).toMatch(/shadowing: 0 of 2 calls in a row matched; last real difference in type at /);
      const seen = new SecretsSeen().add(SECRET).from(await post(primary.url, '/user/get', { id: ownerId }));
      seen.expectAbsentFrom([], { report, json: await (await fetch(`${shadow.url}/shadow/report.json`)).text() });
    } finally {
      flipped.type = false;
      await shadow.close();
    }
  });
});

describe('writes', () => {
  it('are never promoted by their results, only served by name (SHADOW_SERVE_WRITES), and then never sent to the primary', async () => {
    const shadow = await startShadow({ SHADOW_PROMOTE_AFTER: '1', SHADOW_SERVE_WRITES: 'group/create' });
    try {
      const creates = await primaryCalls('/group/create');
      const name = `cutover-${Date.now()}`;
      const created = await post(shadow.url, '/group/create', { name });
      expect(created.group_id).toEqual(expect.any(String));
      expect(await primaryCalls('/group/create')).toBe(creates);
      // v1gate wrote it, through v2, to the data the primary reads.
      const groups = (await post(primary.url, '/group/list', {})).groups as { name: string }[];
      expect(groups.map((g) => g.name)).toContain(name);
      // A write not named goes to the primary, however often it is called.
      const edits = await primaryCalls('/group/edit');
      for (let i = 0; i < 3; i++) await post(shadow.url, '/group/edit', { id: String(created.group_id), name: `${name}-${i}` });
      await shadow.shadow!.idle();
      expect(await primaryCalls('/group/edit')).toBe(edits + 3);
      expect(stateOf(shadow, '/group/edit')).toBeUndefined();
      expect(stateOf(shadow, '/group/create')).toEqual({ endpoint: '/group/create', state: 'serving', streak: 0 });
    } finally {
      await shadow.close();
    }
  });

  it('refuses at start a name that is a read or no endpoint', async () => {
    await expect(startShadow({ SHADOW_SERVE_WRITES: 'user/get,no/such' })).rejects.toThrow(
      /SHADOW_SERVE_WRITES: user\/get is a read: reads are promoted by SHADOW_PROMOTE_AFTER[\s\S]*SHADOW_SERVE_WRITES: no\/such is not an endpoint v1gate serves/,
    );
  });
});

describe('the states in Redis (REDIS_URL)', () => {
  let redis: RunningRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.close();
  });

  it('survive a restart: a promotion and a demotion', async () => {
    const env = { SHADOW_PROMOTE_AFTER: '2', SHADOW_PROMOTED_SAMPLE: '1', REDIS_URL: redis.url };
    let shadow = await startShadow(env);
    try {
      await userGet(shadow);
      await userGet(shadow);
      expect(stateOf(shadow, '/user/get')?.state).toBe('promoted');
    } finally {
      await shadow.close();
    }
    shadow = await startShadow(env);
    try {
      expect(stateOf(shadow, '/user/get')?.state).toBe('promoted');
      flipped.type = true;
      await userGet(shadow);
      expect(stateOf(shadow, '/user/get')?.state).toBe('shadowing');
    } finally {
      flipped.type = false;
      await shadow.close();
    }
    shadow = await startShadow(env);
    try {
      expect(stateOf(shadow, '/user/get')).toMatchObject({ state: 'shadowing', lastDifference: { field: 'type' } });
    } finally {
      await shadow.close();
    }
  });
});
