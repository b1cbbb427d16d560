import { describe, expect, it } from 'vitest';
import { V1Code, V1_RATE_LIMIT_MESSAGE, V2_TO_V1_ERRORS, v1ErrorFor } from './errors.js';

/** Every row of the error table, and the v2 codes that must pass through untouched. */
describe('V2_TO_V1_ERRORS', () => {
  it('turns a v2 401 into v1 102, whatever the v2 code', () => {
    expect(v1ErrorFor({ status: 401, code: 124, message: 'Invalid access token.' })).toEqual({
      code: V1Code.invalidCredentials,
      message: 'Invalid api key or secret: the api_key and api_secret do not match.',
    });
  });

  it("turns a v2 429 into v1 403 with v1's own words", () => {
    expect(v1ErrorFor({ status: 429, code: 429, message: 'Too many' })).toEqual({ code: 403, message: V1_RATE_LIMIT_MESSAGE });
  });

  it('turns a v2 403 into v1 200 (no privilege), keeping the message', () => {
    expect(v1ErrorFor({ status: 403, code: 403, message: 'Not allowed.' })).toEqual({ code: 200, message: 'Not allowed.' });
  });

  it.each([
    [404, 1001, 'User not exist: x.'],
    [409, 1005, 'User already exists.'],
    [404, 3001, 'Meeting not found.'],
    [400, 3003, 'Not the host.'],
    [404, 4130, 'Group not exist.'],
    [400, 200, 'No privilege.'],
    [400, 300, 'Invalid parameter.'],
  ])('passes v2 %i code %i through as the same v1 code and message', (status, code, message) => {
    expect(v1ErrorFor({ status, code, message })).toEqual({ code, message });
  });

  it('has a last row that matches anything, so every failure gets an answer', () => {
    expect(V2_TO_V1_ERRORS.at(-1)!.match).toEqual({});
    for (const row of V2_TO_V1_ERRORS) expect(row.why.length).toBeGreaterThan(10);
  });
});
