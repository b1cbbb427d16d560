import { describe, expect, it } from 'vitest';
import { V1_RATE_LIMIT_MESSAGE } from '../v1/errors.js';
import { isRateLimitRefusal, limitedOnOneSide } from './limited.js';

const json = (value: unknown) => ({ format: 'JSON' as const, value });
const refusal = json({ error: { code: 403, message: V1_RATE_LIMIT_MESSAGE } });

describe('rate-limit refusals in comparisons', () => {
  it("knows v1's refusal by code and message, as JSON (number) or read from XML (text)", () => {
    expect(isRateLimitRefusal(refusal)).toBe(true);
    expect(isRateLimitRefusal({ format: 'XML', value: { error: { code: '403', message: V1_RATE_LIMIT_MESSAGE } } })).toBe(true);
    expect(isRateLimitRefusal(json({ error: { code: 403, message: 'Not allowed to see this meeting.' } }))).toBe(false);
    expect(isRateLimitRefusal(json({ id: '1' }))).toBe(false);
    expect(isRateLimitRefusal(undefined)).toBe(false);
  });

  it('sets a call apart only when one side alone refused', () => {
    expect(limitedOnOneSide(refusal, json({ id: '1' }))).toBe(true);
    expect(limitedOnOneSide(json({ id: '1' }), refusal)).toBe(true);
    expect(limitedOnOneSide(refusal, refusal)).toBe(false);
    expect(limitedOnOneSide(json({ id: '1' }), json({ id: '2' }))).toBe(false);
  });
});
