import { describe, expect, it } from 'vitest';
import { signatureAt, verifySignature, type VerifyOptions } from './sdk-signature.js';

const TS = 1_700_000_000_000;
const join = { apiKey: 'KEY123', apiSecret: 'SECRET456', meetingNumber: '987654321', role: 1 as const };
const options: VerifyOptions = { maxAgeMs: 2 * 3_600_000, allowedSkewMs: 5 * 60_000, now: TS + 1_000 };
const sdkForm = signatureAt(join, TS);

/** The service's Node sample: the same text, standard base64 with padding. */
function paddedStandardForm(signature: string): string {
  return Buffer.from(Buffer.from(signature, 'base64url').toString('utf8'), 'utf8').toString('base64');
}

describe('verifySignature', () => {
  it('accepts the SDK form and the padded standard-base64 form', () => {
    expect(verifySignature(sdkForm, join, options)).toEqual({ ok: true, ts: TS });
    const padded = paddedStandardForm(sdkForm);
    expect(padded).not.toBe(sdkForm);
    expect(verifySignature(padded, join, options)).toEqual({ ok: true, ts: TS });
  });

  it('rejects a wrong secret or key with 3712', () => {
    expect(verifySignature(sdkForm, { ...join, apiSecret: 'other' }, options)).toMatchObject({ ok: false, error: { code: 3712 } });
    expect(verifySignature(sdkForm, { ...join, apiKey: 'other' }, options)).toMatchObject({ ok: false, error: { code: 3712 } });
  });

  it('rejects a tampered or malformed signature with 3712', () => {
    const plain = Buffer.from(sdkForm, 'base64url').toString('utf8').replace('.1.', '.0.');
    expect(verifySignature(Buffer.from(plain).toString('base64url'), join, options)).toMatchObject({ ok: false, error: { code: 3712 } });
    for (const junk of ['', 'not base64!', Buffer.from('a.b.c').toString('base64url')]) {
      expect(verifySignature(junk, join, options)).toMatchObject({ ok: false, error: { code: 3712 } });
    }
  });

  it('rejects another meeting number with 3706 and another role with 3708', () => {
    expect(verifySignature(sdkForm, { ...join, meetingNumber: '111' }, options)).toMatchObject({ ok: false, error: { code: 3706 } });
    expect(verifySignature(sdkForm, { ...join, role: 0 }, options)).toMatchObject({ ok: false, error: { code: 3708 } });
  });

  it('rejects an expired ts and one too far in the future with 3705, inside the window it accepts', () => {
    expect(verifySignature(sdkForm, join, { ...options, now: TS + options.maxAgeMs })).toMatchObject({ ok: true });
    expect(verifySignature(sdkForm, join, { ...options, now: TS + options.maxAgeMs + 1 })).toMatchObject({
      ok: false,
      error: { code: 3705 },
    });
    expect(verifySignature(sdkForm, join, { ...options, now: TS - options.allowedSkewMs })).toMatchObject({ ok: true });
    expect(verifySignature(sdkForm, join, { ...options, now: TS - options.allowedSkewMs - 1 })).toMatchObject({
      ok: false,
      error: { code: 3705 },
    });
  });
});
