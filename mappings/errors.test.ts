import { describe, expect, it } from 'vitest';
import { FAILURES, v1ErrorOf, v2FailureKind, type FailureKind } from './errors.js';
import { V1Code, V1_RATE_LIMIT_MESSAGE } from '../src/v1/errors.js';

/** Every row of the failure table, and the v2 codes that must pass through untouched. */
describe('FAILURES', () => {
  const v2 = (status: number, code: number, message: string, fields = false) =>
    v1ErrorOf(v2FailureKind(status, true, fields), { code, message });

  it('turns a v2 401 into v1 102, whatever the v2 code', () => {
    expect(v2(401, 124, 'Invalid access token.')).toEqual({
      code: V1Code.invalidCredentials,
      message: 'Invalid api key or secret: the api_key and api_secret do not match.',
    });
  });

  it("turns a v2 429 into v1 403 with v1's own words", () => {
    expect(v2(429, 429, 'Too many')).toEqual({ code: 403, message: V1_RATE_LIMIT_MESSAGE });
  });

  it('turns a v2 403 into v1 200 (no privilege), keeping the message', () => {
    expect(v2(403, 403, 'Not allowed.')).toEqual({ code: 200, message: 'Not allowed.' });
  });

  it.each([
    [404, 1001, 'User does not exist: x.'],
    [409, 1005, 'User already in the account: a@example.com'],
    [404, 3001, 'Meeting does not exist: 9.'],
    [400, 3003, 'Not the host.'],
    [404, 4130, 'Group not exist.'],
    [400, 200, 'No privilege.'],
    [400, 300, 'Invalid parameter.'],
  ])('passes v2 %i code %i through as the same v1 code and message', (status, code, message) => {
    expect(v2(status, code, message)).toEqual({ code, message });
  });

  it.each([
    [500, true, 'v2-failed'],
    [502, false, 'v2-failed'],
    [404, false, 'v2-refused-uncoded'],
    [431, false, 'v2-refused-uncoded'],
    [302, false, 'v2-refused-uncoded'],
  ] as const)('never answers a raw HTTP status: %i (v2 body: %s) is %s, v1 503', (status, coded, kind) => {
    expect(v2FailureKind(status, coded, false)).toBe(kind);
    expect(v1ErrorOf(kind, { code: status, message: 'm' }).code).toBe(V1Code.upstreamUnavailable);
  });

  it('names a 400 with field errors as invalid fields, answered 300', () => {
    expect(v2(400, 300, 'Invalid parameter: topic. Too long.', true)).toEqual({
      code: 300,
      message: 'Invalid parameter: topic. Too long.',
    });
  });

  it('gives every kind a reason, and only v2-coded (and a v1 error made as one) keeps a code from outside the table', () => {
    for (const [kind, row] of Object.entries(FAILURES) as [FailureKind, (typeof FAILURES)[FailureKind]][]) {
      expect(row.why.length, kind).toBeGreaterThan(10);
      if (kind !== 'v2-coded' && kind !== 'v1-error') expect(row.v1Code, kind).not.toBe('keep');
    }
  });
});
