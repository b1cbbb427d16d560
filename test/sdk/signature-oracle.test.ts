import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateSignature, SIGNATURE_BACKDATE_MS, signatureAt, verifySignature } from '../../src/v2-contract/sdk-signature.js';
import { bundleSignature, loadBundleSignatureModules, type BundleSignatureModules } from './websdk-bundle.js';

const FIXED_TS = 1_615_248_000_000;

// Keys and secrets as the service issues them, plus anything printable (the SDK does not restrict them).
const credential = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
  fc.string({ minLength: 1, maxLength: 40 }),
  fc.fullUnicodeString({ minLength: 1, maxLength: 20 }),
);
const meetingNumber = fc.stringMatching(/^[0-9]{1,12}$/);
const role = fc.constantFrom(0 as const, 1 as const);

describe('1.9.1 signature against the real @zoomus/websdk@1.9.1 bundle', () => {
  let bundle: BundleSignatureModules;
  beforeAll(() => {
    bundle = loadBundleSignatureModules();
  });

  it('equals the bundle for random keys, secrets, meeting numbers and both roles', () => {
    fc.assert(
      fc.property(credential, credential, meetingNumber, role, (apiKey, apiSecret, number, r) => {
        const input = { apiKey, apiSecret, meetingNumber: number, role: r };
        expect(signatureAt(input, FIXED_TS)).toBe(bundleSignature(bundle, input, FIXED_TS));
      }),
      { numRuns: 500 },
    );
  });

  it('backdates ts by the SDK’s 30 seconds', () => {
    const input = { apiKey: 'k', apiSecret: 's', meetingNumber: '123456789', role: 1 as const };
    expect(generateSignature(input, FIXED_TS + SIGNATURE_BACKDATE_MS)).toBe(bundleSignature(bundle, input, FIXED_TS));
  });

  it('verifies what the bundle signs', () => {
    fc.assert(
      fc.property(credential, credential, meetingNumber, role, (apiKey, apiSecret, number, r) => {
        const signature = bundleSignature(bundle, { apiKey, apiSecret, meetingNumber: number, role: r }, FIXED_TS);
        const result = verifySignature(
          signature,
          { apiKey, apiSecret, meetingNumber: number, role: r },
          { maxAgeMs: 7_200_000, allowedSkewMs: 300_000, now: FIXED_TS + 60_000 },
        );
        expect(result).toEqual({ ok: true, ts: FIXED_TS });
      }),
      { numRuns: 200 },
    );
  });
});
