import { Context } from 'hono';
import { describe, expect, it } from 'vitest';
import { Refusal } from '../translators/kit/failures.js';
import type { Credentials } from '../upstream/client.js';
import { pairProofOf } from '../upstream/pair-proof.js';
import { authenticate } from './authenticate.js';
import type { V1Params } from './params.js';
import { defineEndpoint } from '../translators/kit/define.js';
import { v1Params } from '../v1/param-types.js';
import { RequestCall, V1Call, type AuthenticatedCall, type ReadCall } from './v1-call.js';

const ping = defineEndpoint({ path: '/user/get', params: v1Params({}), v2Calls: [], handle: async () => ({ ok: true }) });

function callWith(params: V1Params): ReadCall {
  const call = new V1Call(new Context(new Request('http://v1gate.test/v1/user/get', { method: 'POST' })), '/v1/user/get', true, false);
  return call.reach({ call, params, endpoint: ping, endpointPath: '/user/get' });
}

const proven = new Set([pairProofOf({ apiKey: 'key', apiSecret: 'right' })]);
const pairs = { isProven: (credentials: Credentials) => proven.has(pairProofOf(credentials)) };

function refusalOf(params: V1Params, allowed?: ReadonlySet<string>): string {
  try {
    authenticate(callWith(params), allowed, pairs);
  } catch (error) {
    expect(error).toBeInstanceOf(Refusal);
    return (error as Refusal).kind;
  }
  throw new Error('not refused');
}

describe('authenticate', () => {
  it('takes the pair, trimmed, and knows a pair v2 accepted lately', () => {
    const read = callWith({ api_key: ' key ', api_secret: 'right\n' });
    const authenticated = authenticate(read, undefined, pairs);
    expect(authenticated.credentials).toEqual({ apiKey: 'key', apiSecret: 'right', proof: expect.any(String) });
    expect(authenticated.proven).toBe(true);
    expect(authenticated).toMatchObject({ endpointPath: '/user/get', params: read.params });
  });

  it('holds any other pair of the key unproven', () => {
    expect(authenticate(callWith({ api_key: 'key', api_secret: 'wrong' }), undefined, pairs).proven).toBe(false);
  });

  it('refuses a missing or blank key or secret', () => {
    expect(refusalOf({ api_key: 'key' })).toBe('missing-credentials');
    expect(refusalOf({ api_key: ' ', api_secret: 'right' })).toBe('missing-credentials');
    expect(refusalOf({ api_key: ['key', 'key'], api_secret: 'right' })).toBe('missing-credentials');
  });

  it('refuses a key the allow-list does not name, whatever its secret', () => {
    expect(refusalOf({ api_key: 'key', api_secret: 'right' }, new Set(['other']))).toBe('key-not-allowed');
  });

  it('lets the credential map decide the keys it names: proven at once, after a hash, or refused', async () => {
    const sync = authenticate(callWith({ api_key: 'mapped', api_secret: 'right' }), undefined, pairs, { decide: () => true });
    expect(sync).not.toBeInstanceOf(Promise);
    expect((sync as AuthenticatedCall).proven).toBe(true);
    const hashing = authenticate(callWith({ api_key: 'mapped', api_secret: 'right' }), undefined, pairs, {
      decide: () => Promise.resolve(true),
    });
    expect(hashing).toBeInstanceOf(Promise);
    expect((await hashing).proven).toBe(true);
    const unmapped = authenticate(callWith({ api_key: 'key', api_secret: 'right' }), undefined, pairs, { decide: () => false });
    expect(unmapped).not.toBeInstanceOf(Promise);
    expect((unmapped as AuthenticatedCall).proven).toBe(true); // left to the prover, which knows this pair
    const refused = new Error('refused');
    expect(() =>
      authenticate(callWith({ api_key: 'mapped', api_secret: 'wrong' }), undefined, pairs, {
        decide: () => {
          throw refused;
        },
      }),
    ).toThrow(refused);
  });

  it("hands on any way in's fields and path with the pair (the SDK signer's), leaving the call's progress to the facade", () => {
    const call = new RequestCall(new Context(new Request('http://v1gate.test/sdk/signature', { method: 'POST' })));
    const read = { call, params: { api_key: 'key', api_secret: 'right', role: '1' }, endpointPath: '/sdk/signature' };
    const authenticated = authenticate(read, undefined, pairs);
    expect(authenticated).toMatchObject({ ...read, credentials: { apiKey: 'key', apiSecret: 'right' }, proven: true });
    const facade = callWith({ api_key: 'key', api_secret: 'right' });
    authenticate(facade, undefined, pairs);
    expect(facade.call.reached).toBe(facade);
  });
});
