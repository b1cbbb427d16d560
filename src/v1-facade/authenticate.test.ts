import { Context } from 'hono';
import { describe, expect, it } from 'vitest';
import { Refusal } from '../translators/kit/failures.js';
import type { Credentials } from '../upstream/client.js';
import { pairProofOf } from '../upstream/pair-proof.js';
import { authenticate } from './authenticate.js';
import type { V1Params } from './params.js';
import { V1Call } from './v1-call.js';

function callWith(params: V1Params): V1Call {
  const call = new V1Call(new Context(new Request('http://v1gate.test/v1/user/get', { method: 'POST' })), '/v1/user/get', true, false);
  call.params = params;
  return call;
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
    const call = callWith({ api_key: ' key ', api_secret: 'right\n' });
    authenticate(call, undefined, pairs);
    expect(call.credentials).toEqual({ apiKey: 'key', apiSecret: 'right', proof: expect.any(String) });
    expect(call.proven).toBe(true);
  });

  it('holds any other pair of the key unproven', () => {
    const call = callWith({ api_key: 'key', api_secret: 'wrong' });
    authenticate(call, undefined, pairs);
    expect(call.proven).toBe(false);
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
    const sync = callWith({ api_key: 'mapped', api_secret: 'right' });
    expect(authenticate(sync, undefined, pairs, { decide: () => true })).toBeUndefined();
    expect(sync.proven).toBe(true);
    const hashed = callWith({ api_key: 'mapped', api_secret: 'right' });
    await authenticate(hashed, undefined, pairs, { decide: () => Promise.resolve(true) });
    expect(hashed.proven).toBe(true);
    const unmapped = callWith({ api_key: 'key', api_secret: 'right' });
    expect(authenticate(unmapped, undefined, pairs, { decide: () => false })).toBeUndefined();
    expect(unmapped.proven).toBe(true); // left to the prover, which knows this pair
    const refused = new Error('refused');
    expect(() =>
      authenticate(callWith({ api_key: 'mapped', api_secret: 'wrong' }), undefined, pairs, {
        decide: () => {
          throw refused;
        },
      }),
    ).toThrow(refused);
  });
});
