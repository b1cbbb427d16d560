import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FAILURES, type FailureKind } from '../../mappings/errors.js';
import { KnownSecrets, SecretValues } from '../shared/secrets.js';
import { V2 } from '../v2-contract/v2-routes.js';
import type { V1CallRecord } from '../v1-steps/observe.js';
import { callLineText, REDACTED } from './call-line.js';
import { onePass } from './line-json.js';
import { callLineJson } from './logging.js';
import { hostilePieces } from '../../test/support/hostile-texts.js';

/**
 * The call line's writer made from its field list (`callLineText`) writes, for any call record,
 * the very text the one-pass walk writes (`callLineJson`, itself held to pino's general path by
 * src/ops/line-json.test.ts), byte for byte; and hands the same records to the general path.
 */

const CONFIGURED = 'configured-secret-0123';
const OWN = ['own-api-secret-value', 'Redacted', 'sec ret/+?&=1', '12345678'];

/** Texts mostly as calls carry them (bare ASCII), with the pieces that need the walk mixed in. */
const piece = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^[\x20-\x7e]{0,12}$/) },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(...hostilePieces({ redacted: REDACTED, configured: CONFIGURED, own: OWN })),
  },
  { weight: 1, arbitrary: fc.constantFrom('a'.repeat(300), 'b'.repeat(250), 'é'.repeat(200)) },
);
const text = fc.array(piece, { maxLength: 4 }).map((pieces) => pieces.join(''));
const name = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('email', 'id', 'data_type', 'topic', 'start_time', 'member_ids[]', 'host_id', 'type') },
  { weight: 1, arbitrary: fc.constantFrom('api_secret', 'password', 'zak', '…', 'n'.repeat(300), `x_${OWN[0]}`, CONFIGURED, 'a"b') },
  { weight: 1, arbitrary: text },
);
const params = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(name, text, { maxKeys: 16 }) },
  { weight: 1, arbitrary: fc.dictionary(name, fc.oneof(text, fc.array(text, { maxLength: 3 })), { maxKeys: 80 }) },
);
const number = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 100_000 }).map((n) => n / 100) },
  { weight: 1, arbitrary: fc.constantFrom(0, -0, 1e21, 12345678, 123456789, Number.NaN, Number.POSITIVE_INFINITY, -1.5e-7) },
  { weight: 1, arbitrary: fc.double() },
);
const v2Call = fc.record(
  {
    method: fc.constantFrom('GET' as const, 'POST' as const, 'PATCH' as const, 'DELETE' as const),
    path: fc.oneof(fc.constantFrom('/users/email', `/users/${OWN[0]}`, '/users/abcDEF123/meetings'), text),
    status: fc.oneof(fc.constantFrom(0, 200, 201, 404, 429), fc.integer()),
    ms: number,
    trackingId: text,
    limitKind: fc.constantFrom('account' as const, 'user-daily' as const, 'resource' as const),
  },
  { requiredKeys: ['method', 'path', 'status', 'ms'] },
);

const record: fc.Arbitrary<V1CallRecord> = fc
  .record({
    requestId: fc.oneof(fc.uuid(), text),
    traceId: fc.oneof(fc.hexaString({ minLength: 32, maxLength: 32 }), text),
    spanId: fc.hexaString({ minLength: 16, maxLength: 16 }),
    method: fc.oneof(fc.constantFrom('POST', 'GET'), text),
    client: fc.option(fc.oneof(fc.ipV4(), fc.ipV6(), text), { nil: undefined }),
    peer: fc.option(fc.oneof(fc.ipV4(), text), { nil: undefined }),
    rawPath: text.map((path) => `/v1/${path}`),
    endpoint: fc.option(fc.constantFrom('/user/checkemail', '/meeting/create', '/user/get'), { nil: undefined }),
    apiKey: fc.option(text, { nil: undefined }),
    secrets: fc.option(fc.subarray(OWN, { minLength: 1 }), { nil: undefined }),
    params: fc.option(params, { nil: undefined }),
    errorCode: fc.option(fc.oneof(fc.constantFrom(300, 1001, 12345678), fc.integer()), { nil: undefined }),
    failure: fc.option(fc.constantFrom(...(Object.keys(FAILURES) as FailureKind[])), { nil: undefined }),
    ms: number,
    v2Calls: fc.oneof(
      { weight: 6, arbitrary: fc.array(v2Call, { maxLength: 3 }) },
      { weight: 1, arbitrary: fc.array(v2Call, { maxLength: 80 }) },
    ),
  })
  .map(({ secrets, v2Calls, ...fields }) => ({
    ...fields,
    v2Calls: v2Calls.map((call) => ({ ...call, route: V2.users.emailTaken, undo: false })),
    startedAt: new Date(0),
    secrets: secrets && new SecretValues(secrets),
    pairProven: true,
    answer: {},
    dataType: 'JSON' as const,
  }));

describe("the call line's writer made from its field list", () => {
  it('writes the text the one-pass walk writes, byte for byte, for any call record', () => {
    const known = new KnownSecrets([CONFIGURED, '0123456789ab']).redactor(REDACTED);
    let same = 0;
    fc.assert(
      fc.property(record, (call) => {
        const redactor = call.secrets ? known.with(call.secrets) : known;
        const walked = onePass(callLineJson, call, redactor);
        expect(onePass(callLineText, call, redactor)).toBe(walked);
        if (walked !== undefined) same++;
      }),
      { numRuns: 1_500 },
    );
    // Most records are written, not handed to the general path: the comparison is of two texts.
    expect(same).toBeGreaterThan(1_000);
  });

  it("writes a typical call's line without the walk, and a secret in it through the walk", () => {
    const call: V1CallRecord = {
      requestId: 'e4b1c0de-1234-4abc-9def-0123456789ab',
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      startedAt: new Date(0),
      method: 'POST',
      client: '127.0.0.1',
      rawPath: '/v1/user/checkemail',
      endpoint: '/user/checkemail',
      apiKey: 'a-key',
      secrets: new SecretValues([OWN[0]!]),
      params: { email: 'someone@example.com', data_type: 'JSON' },
      errorCode: undefined,
      pairProven: true,
      answer: {},
      dataType: 'JSON',
      ms: 1.73,
      v2Calls: [{ route: V2.users.emailTaken, method: 'GET', path: '/users/email', undo: false, status: 200, ms: 1.2 }],
    };
    const redactor = new KnownSecrets().redactor(REDACTED).with(call.secrets!);
    expect(callLineText(call, redactor)).toBe(
      ',"reqId":"e4b1c0de-1234-4abc-9def-0123456789ab","trace_id":"4bf92f3577b34da6a3ce929d0e0e4736","span_id":"00f067aa0ba902b7",' +
        '"method":"POST","client":"127.0.0.1","endpoint":"/user/checkemail","code":0,"ms":1.7,"keyHash":"' +
        `${callLineJson(call, redactor).match(/"keyHash":"(\w+)"/)![1]}",` +
        '"params":{"email":"someone@example.com","data_type":"JSON"},"v2":[{"method":"GET","path":"/users/email","status":200,"ms":1.2}]',
    );
    const leaked = { ...call, params: { email: `${OWN[0]}@example.com` }, requestId: `?zak=${OWN[0]}` };
    const line = callLineText(leaked, redactor);
    expect(line).not.toContain(OWN[0]);
    expect(line).toBe(callLineJson(leaked, redactor));
  });
});
