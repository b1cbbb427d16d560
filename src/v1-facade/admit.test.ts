import { Context } from 'hono';
import { describe, expect, it } from 'vitest';
import { Refusal } from '../translators/kit/failures.js';
import { inboundOwnerOf } from '../ratelimit/inbound-limiter.js';
import { pairProofOf } from '../upstream/pair-proof.js';
import { admit, type InboundGate } from './admit.js';
import { V1Call } from './v1-call.js';

function callOf(proven: boolean): V1Call {
  const call = new V1Call(new Context(new Request('http://v1gate.test/v1/user/get', { method: 'POST' })), '/v1/user/get', true, false);
  call.endpointPath = '/user/get';
  call.credentials = { apiKey: 'key', apiSecret: 'secret' };
  call.proven = proven;
  return call;
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
    const call = callOf(true);
    await admit(call, inbound);
    expect(inbound.asked).toEqual(['key /user/get']);
    expect(call.headers).toEqual({ 'X-RateLimit-Remaining': '0' });
  });

  it("checks an unproven pair outside the key's bucket", async () => {
    const inbound = gate(1);
    await admit(callOf(false), inbound);
    expect(inbound.asked).toEqual([`${inboundOwnerOf('key', pairProofOf({ apiKey: 'key', apiSecret: 'secret' }))} /user/get`]);
    expect(inbound.asked[0]).not.toBe('key /user/get');
  });

  it('refuses over the limit with the rate-limit refusal and its headers', async () => {
    const inbound = gate(0);
    const error: unknown = await admit(callOf(true), inbound).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Refusal);
    expect((error as Refusal).kind).toBe('inbound-limited');
    expect((error as Refusal).headers).toEqual({ 'X-RateLimit-Remaining': '-1' });
  });
});
