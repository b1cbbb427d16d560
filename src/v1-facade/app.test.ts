import { describe, expect, it } from 'vitest';
import { V2 } from '../v2-contract/v2-routes.js';
import { defineEndpoint } from '../translators/kit/define.js';
import type { V2Client } from '../upstream/client.js';
import { PairProver } from '../upstream/pair-proof.js';
import { v1Params } from '../v1/param-types.js';
import type { InboundGate } from '../v1-steps/admit.js';
import { createV1App } from './app.js';
import type { V1CallRecord } from '../v1-steps/observe.js';

const ping = defineEndpoint({ path: '/test/ping', params: v1Params({}), v2Calls: [], handle: async () => ({ ok: true }) });
/** The endpoint calls no v2: a v2 call would be a bug of the composition. */
const noV2 = { call: () => Promise.reject(new Error('no v2 call was expected')) } as unknown as V2Client;
const owner = { apiKey: 'key', apiSecret: 'right' };

/** A facade whose inbound limit admits `allowed` calls, its records kept; the owner's pair proven beforehand. */
async function facade(allowed: number) {
  const pairs = new PairProver();
  await pairs.prove(owner, V2.users.get.at('me'), () => Promise.resolve({}));
  let checks = 0;
  const inbound: InboundGate = {
    check: () => Promise.resolve({ allowed: ++checks <= allowed, headers: { 'X-RateLimit-Limit': String(allowed) } }),
  };
  const records: V1CallRecord[] = [];
  const app = createV1App({
    endpoints: [ping],
    v2: noV2,
    pairs,
    inbound,
    body: { maxBytes: 1024, idleTimeoutMs: 1_000 },
    keepAlive: true,
    observers: [(record) => records.push(record)],
  });
  const post = async (body: string) => {
    const headers = { 'content-type': 'application/x-www-form-urlencoded' };
    const response = await app.request('/v1/test/ping', { method: 'POST', headers, body });
    const answer: unknown = await response.json();
    return { headers: response.headers, answer };
  };
  return { post, records };
}

describe('the facade composes its steps', () => {
  it('keeps each step’s result as the furthest the call got: a refusal at admit still knows the endpoint and the pair’s standing', async () => {
    const { post, records } = await facade(1);
    const admitted = await post('api_key=key&api_secret=right');
    expect(admitted.answer).toEqual({ ok: true });
    const refused = await post('api_key=key&api_secret=right');
    expect(refused.answer).toMatchObject({ error: { code: expect.any(Number) } });
    expect(refused.headers.get('x-ratelimit-limit')).toBe('1');
    expect(records.map((r) => [r.endpoint, r.failure, r.pairProven])).toEqual([
      ['/test/ping', undefined, true],
      ['/test/ping', 'inbound-limited', true],
    ]);
  });

  it('knows the endpoint of a call refused at authenticate, and the params of one refused at read', async () => {
    const { post, records } = await facade(1);
    await post('api_key=key');
    await post('api_key=key&api_secret=right&data_type=csv');
    await post('a=%zz');
    expect(records.map((r) => [r.endpoint, r.failure, r.params])).toEqual([
      ['/test/ping', 'missing-credentials', {}],
      [undefined, 'bad-data-type', { data_type: 'csv' }],
      [undefined, 'undecodable-params', undefined],
    ]);
  });
});
