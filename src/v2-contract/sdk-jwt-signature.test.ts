import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateJwtSignature, isJwtSignature, jwtSdkKey, SIGNATURE_ERRORS, signatureAt, verifyJwtSignature } from './sdk-signature.js';

/** Today's JWT signature: made and checked at the edges of the service's rules (the gateway's test checks it with jose). */

const NOW = 1_700_000_000_000;
const now = Math.floor(NOW / 1000);
const SECRET = 'sdk-secret';
const expect2 = { sdkSecret: SECRET, meetingNumber: '987654321' };
const at = { allowedSkewMs: 5 * 60_000, now: NOW };

function forged(claims: Record<string, unknown>, header: object = { alg: 'HS256', typ: 'JWT' }): string {
  const part = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const input = `${part(header)}.${part(claims)}`;
  return `${input}.${createHmac('sha256', SECRET).update(input).digest('base64url')}`;
}
const claims = (over: Record<string, unknown> = {}) => ({
  appKey: 'K',
  sdkKey: 'K',
  mn: 987654321,
  role: 0,
  iat: now - 30,
  exp: now - 30 + 7_200,
  tokenExp: now - 30 + 7_200,
  ...over,
});

describe('generateJwtSignature', () => {
  it('refuses a lifetime outside 1800 to 172800 whole seconds', () => {
    const input = { sdkKey: 'K', sdkSecret: SECRET, meetingNumber: '1', role: 0 as const };
    for (const bad of [1_799, 172_801, 1_800.5])
      expect(() => generateJwtSignature({ ...input, expirationSeconds: bad }, NOW)).toThrow(RangeError);
    for (const good of [1_800, 172_800])
      expect(
        verifyJwtSignature(generateJwtSignature({ ...input, expirationSeconds: good }, NOW), { sdkSecret: SECRET, meetingNumber: '1' }, at)
          .ok,
      ).toBe(true);
  });

  it('is told from the 1.9.1 signature, and names its SDK key', () => {
    const jwt = generateJwtSignature({ sdkKey: 'K', sdkSecret: SECRET, meetingNumber: '1', role: 1 }, NOW);
    expect(isJwtSignature(jwt)).toBe(true);
    expect(isJwtSignature(signatureAt({ apiKey: 'a.b', apiSecret: 's', meetingNumber: '1', role: 0 }, NOW))).toBe(false);
    expect(jwtSdkKey(jwt)).toBe('K');
  });
});

describe('verifyJwtSignature', () => {
  it('accepts the sample’s claims and hands back the role', () => {
    const result = verifyJwtSignature(forged(claims({ role: 1 })), expect2, at);
    expect(result).toEqual({ ok: true, claims: claims({ role: 1 }) });
  });

  it.each([
    [
      'another secret',
      forged(claims()).replace(/\.[^.]+$/, `.${createHmac('sha256', 'x').update('y').digest('base64url')}`),
      SIGNATURE_ERRORS.invalid,
    ],
    ['alg none', forged(claims(), { alg: 'none', typ: 'JWT' }), SIGNATURE_ERRORS.invalid],
    ['exp 1799 s after iat', forged(claims({ exp: now - 30 + 1_799, tokenExp: now - 30 + 1_799 })), SIGNATURE_ERRORS.invalid],
    ['exp beyond 48 h', forged(claims({ exp: now - 30 + 172_801, tokenExp: now - 30 + 172_801 })), SIGNATURE_ERRORS.invalid],
    ['tokenExp 1799 s after iat', forged(claims({ tokenExp: now - 30 + 1_799 })), SIGNATURE_ERRORS.invalid],
    ['iat as a string', forged(claims({ iat: String(now - 30) })), SIGNATURE_ERRORS.invalid],
    ['no key', forged(claims({ appKey: undefined, sdkKey: undefined })), SIGNATURE_ERRORS.invalid],
    ['role 2', forged(claims({ role: 2 })), SIGNATURE_ERRORS.role],
    [
      'iat 6 minutes ahead',
      forged(claims({ iat: now + 360, exp: now + 360 + 7_200, tokenExp: now + 360 + 7_200 })),
      SIGNATURE_ERRORS.expired,
    ],
    ['exp now', forged(claims({ iat: now - 7_200, exp: now, tokenExp: now })), SIGNATURE_ERRORS.expired],
    ['another meeting', forged(claims({ mn: 1 })), SIGNATURE_ERRORS.meetingNumber],
  ])('refuses %s', (_name, signature, error) => {
    expect(verifyJwtSignature(signature, expect2, at)).toEqual({ ok: false, error });
  });

  it('takes iat up to 5 minutes ahead and exp one second on', () => {
    expect(
      verifyJwtSignature(forged(claims({ iat: now + 300, exp: now + 300 + 1_800, tokenExp: now + 300 + 1_800 })), expect2, at).ok,
    ).toBe(true);
    expect(verifyJwtSignature(forged(claims({ iat: now - 1_799, exp: now + 1, tokenExp: now + 1 })), expect2, at).ok).toBe(true);
  });
});
