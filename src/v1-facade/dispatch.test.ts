import { Context } from 'hono';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { V2 } from '../v2-contract/v2-routes.js';
import { defineEndpoint } from '../translators/kit/define.js';
import type { Credentials, V2Client, V2Request } from '../upstream/client.js';
import { V2Error } from '../upstream/errors.js';
import { V1Error } from '../v1/errors.js';
import { v1, v1Params } from '../v1/param-types.js';
import { dispatch, type DispatchParts } from './dispatch.js';
import { KeyMemo } from '../v1-steps/key-memo.js';
import { PairProver } from '../upstream/pair-proof.js';
import { V1Call, type AdmittedCall } from '../v1-steps/v1-call.js';

/** Reads `/users/{id}` for each of `ids`, at once. */
const readAll = defineEndpoint({
  path: '/test/read',
  params: v1Params({ ids: v1.list({ max: 10 }) }),
  v2Calls: [V2.users.get],
  async handle({ ids }, ctx) {
    return { read: (await Promise.all(ids.map((id) => ctx.v2.get(V2.users.get.at(id))))).length };
  },
});

/** A v2 user, as GET /users/{userId}'s one schema reads it. */
const A_USER = { id: 'u1', email: 'u1@example.com' };

/** A v2 client that answers 401 to any secret but `right`, and records what was sent. */
function fakeV2(): V2Client & { sent: string[] } {
  const sent: string[] = [];
  const client = {
    sent,
    call(credentials: Credentials, request: V2Request) {
      request.onSend?.();
      sent.push(`${request.target.route.method} ${request.target.path}${request.unmetered ? ' (unmetered)' : ''}`);
      return credentials.apiSecret === 'right' ? Promise.resolve(A_USER) : Promise.reject(new V2Error(401, 124, 'Invalid access token.'));
    },
  };
  return client as unknown as V2Client & { sent: string[] };
}

function setUp(secret: string, proven: boolean, ids = 'a,b,c') {
  const call = new V1Call(new Context(new Request('http://v1gate.test/v1/test/read', { method: 'POST' })), '/v1/test/read', true, false);
  const credentials = { apiKey: 'key', apiSecret: secret };
  const admitted = call.reach<AdmittedCall>({
    call,
    params: { ids },
    endpoint: readAll,
    endpointPath: '/test/read',
    credentials,
    proven,
    admitted: true,
  });
  const v2 = fakeV2();
  const pairs = new PairProver();
  const parts: DispatchParts = {
    v2,
    memo: new KeyMemo({ auxTtlMs: 0 }),
    pairs,
    now: () => new Date(0),
    outboundMaxWaitMs: 1_000,
    fanOut: undefined,
    logger: pino({ enabled: false }),
  };
  return { admitted, call, parts, pairs, v2 };
}

describe('dispatch', () => {
  it('runs the translator with the caller’s pair and counts the v2 calls sent', async () => {
    const { admitted, call, parts, v2 } = setUp('right', true);
    expect(await dispatch(admitted, parts)).toEqual({ read: 3 });
    expect(call.upstreamCalls).toBe(3);
    expect(v2.sent).toEqual(['GET /users/a', 'GET /users/b', 'GET /users/c']);
  });

  it('proves an unproven pair with its first v2 call, sent alone and without the key’s tokens, then sends the rest', async () => {
    const { admitted, parts, pairs, v2 } = setUp('right', false);
    expect(await dispatch(admitted, parts)).toEqual({ read: 3 });
    expect(v2.sent).toEqual(['GET /users/a (unmetered)', 'GET /users/b', 'GET /users/c']);
    expect(pairs.isProven(admitted.credentials)).toBe(true);
  });

  it('sends one v2 call for a wrong secret, and the pair stays unproven', async () => {
    const { admitted, parts, pairs, v2 } = setUp('wrong', false);
    await expect(dispatch(admitted, parts)).rejects.toBeInstanceOf(V2Error);
    expect(v2.sent).toEqual(['GET /users/a (unmetered)']);
    expect(pairs.isProven(admitted.credentials)).toBe(false);
  });

  it('refuses params the schema refuses, naming the field, before any v2 call', async () => {
    const { admitted, parts, v2 } = setUp('right', true, '');
    let error: unknown;
    try {
      await dispatch(admitted, parts);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(V1Error);
    expect((error as V1Error).message).toBe('ids is required.');
    expect(v2.sent).toEqual([]);
  });
});
