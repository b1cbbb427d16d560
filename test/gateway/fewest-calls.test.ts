import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningGateway } from '../../src/gateway.js';
import { postV1 } from '../support/v1-form.js';
import { startFaultUpstream, startGatewayOver, type FaultUpstream } from '../support/fault-upstream.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';
import { FUTURE } from '../support/v1-answers.js';

/**
 * Fewest v2 calls: coalesced GETs, the short-lived aux cache and the per-key facts, proven by
 * counting — the requests a proxy between gateway and sandbox saw, and the x-v2-calls each v1
 * answer declares (which must add up to what was really sent).
 */
let sandbox: RunningSandbox;
let proxy: FaultUpstream;
let gateway: RunningGateway;
let creds: { api_key: string; api_secret: string };

async function start(env: Record<string, string> = {}) {
  gateway = await startGatewayOver(proxy.url, env);
}

beforeAll(async () => {
  sandbox = await startSandbox();
  proxy = await startFaultUpstream(`${sandbox.url}/v2`);
  creds = { api_key: sandbox.sandbox.credentials.apiKey, api_secret: sandbox.sandbox.credentials.apiSecret };
});
afterEach(async () => {
  proxy.rules.length = 0;
  proxy.seen.length = 0;
  await gateway?.close();
});
afterAll(async () => {
  await proxy.close();
  await sandbox.close();
});

async function v1(path: string, params: Record<string, string>, as = creds): Promise<{ body: any; v2Calls: number }> {
  const response = await postV1(gateway.url, path, { ...as, ...params });
  return { body: await response.json(), v2Calls: Number(response.headers.get('x-v2-calls')) };
}

const owner = () => sandbox.sandbox.master.ownerId;
const seen = (method: string, path: RegExp) => proxy.seen.filter((r) => r.method === method && path.test(r.path)).length;
const LIVE = /^\/users\/[^/]+\/meetings$/;

async function createMeeting(topic: string): Promise<string> {
  const { body } = await v1('/meeting/create', { host_id: owner(), type: '2', topic, start_time: FUTURE });
  expect(body.error, JSON.stringify(body)).toBeUndefined();
  return body.id;
}

describe("/meeting/get: the host's live meetings come from the aux cache", () => {
  it("a repeated mix of gets of one host's meetings costs at most 1.1 v2 calls per v1 call, and x-v2-calls adds up to what was sent", async () => {
    // A TTL far longer than the test: counting, not timing (a slow box must not read twice).
    await start({ AUX_CACHE_TTL_MS: '60000' });
    const ids = [await createMeeting('A'), await createMeeting('B'), await createMeeting('C')];
    proxy.seen.length = 0;
    let declared = 0;
    const calls = 30;
    for (let i = 0; i < calls; i++) {
      const { body, v2Calls } = await v1('/meeting/get', { id: ids[i % ids.length]!, host_id: owner() });
      expect(body.status).toBe(0);
      declared += v2Calls;
    }
    expect(declared).toBe(proxy.seen.length);
    expect(seen('GET', LIVE)).toBe(1);
    expect(declared / calls).toBeLessThanOrEqual(1.1);
  });

  it('AUX_CACHE_TTL_MS=0 turns it off: every get reads the live list again', async () => {
    await start({ AUX_CACHE_TTL_MS: '0' });
    const id = await createMeeting('Off');
    proxy.seen.length = 0;
    for (let i = 0; i < 3; i++) expect((await v1('/meeting/get', { id, host_id: owner() })).v2Calls).toBe(2);
    expect(seen('GET', LIVE)).toBe(3);
  });

  it('a write of the key through v1gate drops it: /meeting/end, then /meeting/get shows status 0 at once', async () => {
    await start({ AUX_CACHE_TTL_MS: '60000' });
    const id = await createMeeting('Ends');
    expect((await sandbox.control('POST', `/meetings/${id}/start`, {})).status).toBe(201);
    expect((await v1('/meeting/get', { id, host_id: owner() })).body.status).toBe(1);
    expect((await v1('/meeting/get', { id, host_id: owner() })).v2Calls).toBe(1);
    expect((await v1('/meeting/end', { id, host_id: owner() })).body.error).toBeUndefined();
    const after = await v1('/meeting/get', { id, host_id: owner() });
    expect(after.body.status).toBe(0);
    expect(after.v2Calls).toBe(2);
  });

  it('an update drops it too; a change made outside v1gate is seen once the TTL has passed', async () => {
    await start({ AUX_CACHE_TTL_MS: '200' });
    const id = await createMeeting('Updated');
    expect((await v1('/meeting/get', { id, host_id: owner() })).body.status).toBe(0);
    await sandbox.control('POST', `/meetings/${id}/start`, {});
    expect((await v1('/meeting/update', { id, host_id: owner(), type: '2', topic: 'Renamed' })).body.error).toBeUndefined();
    expect((await v1('/meeting/get', { id, host_id: owner() })).body).toMatchObject({ topic: 'Renamed', status: 1 });
    // Ended by the host in the client: no write through v1gate, so the kept answer stands ≤ TTL.
    await sandbox.control('POST', `/meetings/${id}/end`, {});
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await v1('/meeting/get', { id, host_id: owner() })).body.status).toBe(0);
  });

  it("a wrong secret gets nothing from it: the key's kept answer is for the right pair only", async () => {
    await start({ AUX_CACHE_TTL_MS: '60000' });
    const id = await createMeeting('Pair');
    await v1('/meeting/get', { id, host_id: owner() });
    const wrong = await v1('/meeting/get', { id, host_id: owner() }, { ...creds, api_secret: 'not the secret' });
    expect(wrong.body.error).toBeDefined();
    expect(wrong.body.status).toBeUndefined();
  });
});

describe('coalescing', () => {
  it('identical concurrent /meeting/get calls send each v2 read once; their x-v2-calls add up to what was sent', async () => {
    await start({ AUX_CACHE_TTL_MS: '0' });
    const id = await createMeeting('Burst');
    await v1('/meeting/get', { id, host_id: owner() }); // the pair is proven: the burst fans out at once
    proxy.seen.length = 0;
    // Each v2 read is held so the burst's calls overlap.
    proxy.rules.push({ method: 'GET', path: /./, fault: { kind: 'delay', ms: 150 } });
    const answers = await Promise.all(Array.from({ length: 8 }, () => v1('/meeting/get', { id, host_id: owner() })));
    for (const a of answers) expect(a.body).toMatchObject({ id, topic: 'Burst', status: 0 });
    expect(seen('GET', /^\/meetings\/\d+$/)).toBe(1);
    expect(seen('GET', LIVE)).toBe(1);
    expect(answers.reduce((sum, a) => sum + a.v2Calls, 0)).toBe(proxy.seen.length);
  });

  it('waiters get the same error', async () => {
    await start({ AUX_CACHE_TTL_MS: '0' });
    await v1('/meeting/get', { id: await createMeeting('Proof'), host_id: owner() });
    proxy.seen.length = 0;
    proxy.rules.push({ method: 'GET', path: /./, fault: { kind: 'delay', ms: 150 } });
    const answers = await Promise.all(Array.from({ length: 5 }, () => v1('/meeting/get', { id: '99999999999', host_id: owner() })));
    for (const a of answers) expect(a.body.error.code).toBe(3001);
    expect(seen('GET', /^\/meetings\/\d+$/)).toBe(1);
  });
});

describe('the account id of group answers', () => {
  it('is read once per key and secret', async () => {
    await start();
    const created = await v1('/group/create', { name: `Once ${Date.now()}` });
    expect(created.body.error, JSON.stringify(created.body)).toBeUndefined();
    for (let i = 0; i < 3; i++) {
      const got = await v1('/group/get', { id: created.body.group_id });
      expect(got.body.account_id).toBe(created.body.account_id);
      expect(got.v2Calls).toBe(1);
    }
    await v1('/group/list', {});
    expect(seen('GET', /^\/users\/me$/)).toBe(1);
  });
});
