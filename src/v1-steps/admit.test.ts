import { Context } from 'hono';
import { describe, expect, it } from 'vitest';
import { Refusal } from '../translators/kit/failures.js';
import { inboundOwnerOf } from '../ratelimit/inbound-limiter.js';
import { pairProofOf } from '../upstream/pair-proof.js';
import { admit, type InboundGate } from './admit.js';
import { defineEndpoint } from '../translators/kit/define.js';
import { v1Params } from '../v1/param-types.js';
import { RequestCall, V1Call, type AuthenticatedCall } from './v1-call.js';

const ping = defineEndpoint({ path: '/user/get', params: v1Params({}), v2Calls: [], handle: async () => ({ ok: true }) });

function callOf(proven: boolean): AuthenticatedCall {
  const call = new V1Call(new Context(new Request('http://v1gate.test/v1/user/get', { method: 'POST' })), '/v1/user/get', true, false);
  const params = { api_key: 'key', api_secret: 'secret' };
  const credentials = { apiKey: 'key', apiSecret: 'secret' };
  return call.reach({ call, params, endpoint: ping, endpointPath: '/user/get', credentials, proven });
}

/** A gate that admits `allowed` times, and says which bucket each check named. */
function gate(allowed: number): InboundGate & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    check: (bucket, v1Path) => {
      asked.push(`${bucket} ${v1Path}`);
      return Promise.resolve({ allowed: asked.length <= allowed, headers: { 'X-RateLimit-Remaining': String(allowed - asked.length) } });
    },
  };
}

describe('admit', () => {
  it("checks a proven pair in its key's bucket and keeps the bucket's headers for the answer", async () => {
    const inbound = gate(1);
    const authenticated = callOf(true);
    const admitted = await admit(authenticated, inbound);
    expect(inbound.asked).toEqual(['key /user/get']);
    expect(authenticated.call.headers).toEqual({ 'X-RateLimit-Remaining': '0' });
    expect(admitted).toMatchObject({ credentials: authenticated.credentials, admitted: true });
  });

  it("checks an unproven pair outside the key's bucket", async () => {
    const inbound = gate(1);
    await admit(callOf(false), inbound);
    expect(inbound.asked).toEqual([`${inboundOwnerOf('key', pairProofOf({ apiKey: 'key', apiSecret: 'secret' }))} /user/get`]);
    expect(inbound.asked[0]).not.toBe('key /user/get');
  });

  it('refuses over the limit with the rate-limit refusal and its headers', async () => {
    const inbound = gate(0);
    const authenticated = callOf(true);
    const error: unknown = await Promise.resolve(admit(authenticated, inbound)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Refusal);
    expect((error as Refusal).kind).toBe('inbound-limited');
    expect((error as Refusal).headers).toEqual({ 'X-RateLimit-Remaining': '-1' });
  });

  it('admits every call at once when there is no inbound limit', () => {
    const admitted = admit(callOf(false), undefined);
    expect(admitted).not.toBeInstanceOf(Promise);
    expect(admitted).toMatchObject({ endpointPath: '/user/get', proven: false, admitted: true });
  });

  it("limits any way in under its own path (the SDK signer's), its headers kept on its call", async () => {
    const inbound = gate(1);
    const call = new RequestCall(new Context(new Request('http://v1gate.test/sdk/signature', { method: 'POST' })));
    const credentials = { apiKey: 'key', apiSecret: 'secret' };
    const stage = { call, params: { role: '1' }, endpointPath: '/sdk/signature', credentials, proven: true };
    expect(await admit(stage, inbound)).toEqual({ ...stage, admitted: true });
    expect(inbound.asked).toEqual(['key /sdk/signature']);
    expect(call.headers).toEqual({ 'X-RateLimit-Remaining': '0' });
  });
});
