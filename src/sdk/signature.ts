import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The browser meeting SDK 1.9.1 join signature, computed on the server so the API secret never
 * reaches the page (the SDK's own `generateSignature` needs it in the browser).
 *
 *   ts   = now − 30,000 ms (the SDK's own allowance for a client clock ahead of the service's)
 *   msg  = base64(apiKey + meetingNumber + ts + role)
 *   hash = base64(HMAC-SHA256(secret, msg))            standard alphabet, padded
 *   sig  = base64url(`${apiKey}.${meetingNumber}.${ts}.${role}.${hash}`), no padding
 *
 * The last step is the 1.9.1 bundle's `Base64.encodeURI`; test/sdk/signature-oracle.test.ts checks
 * every step against the real bundle.
 */

export type SdkRole = 0 | 1;

export interface SignatureInput {
  apiKey: string;
  apiSecret: string;
  meetingNumber: string;
  role: SdkRole;
}

/** The SDK subtracts 30 s so that a freshly made signature is never "from the future". */
export const SIGNATURE_BACKDATE_MS = 30_000;

/** A meeting number as the SDK accepts it: 1–12 digits (the v1 spec's meeting ids). */
export const MEETING_NUMBER = /^\d{1,12}$/;

export function generateSignature(input: SignatureInput, nowMs: number = Date.now()): string {
  return signatureAt(input, nowMs - SIGNATURE_BACKDATE_MS);
}

/** The signature for an explicit `ts` (the oracle test fixes it). */
export function signatureAt(input: SignatureInput, ts: number): string {
  const hash = signatureHash(input.apiSecret, input.apiKey, input.meetingNumber, ts, input.role);
  const plain = `${input.apiKey}.${input.meetingNumber}.${ts}.${input.role}.${hash}`;
  return Buffer.from(plain, 'utf8').toString('base64url');
}

function signatureHash(apiSecret: string, apiKey: string, meetingNumber: string, ts: number | string, role: number | string): string {
  const msg = Buffer.from(`${apiKey}${meetingNumber}${ts}${role}`, 'utf8').toString('base64');
  return createHmac('sha256', apiSecret).update(msg).digest('base64');
}

/** The SDK's join error codes a signature can produce (spec, Error codes). */
export const SIGNATURE_ERRORS = {
  invalid: { code: 3712, message: 'Signature is invalid.' },
  expired: { code: 3705, message: 'The signature has expired.' },
  meetingNumber: { code: 3706, message: 'The meeting number is wrong.' },
  role: { code: 3708, message: 'Signature role error.' },
} as const;

export type SignatureError = (typeof SIGNATURE_ERRORS)[keyof typeof SIGNATURE_ERRORS];

export interface VerifyOptions {
  /** How long after its `ts` a signature is accepted. */
  maxAgeMs: number;
  /** How far a `ts` may lie in the future (a signer's clock ahead of ours). */
  allowedSkewMs: number;
  now?: number;
}

/** Our documented choice (docs/decisions.md): valid for 2 hours, 5 minutes of clock skew. */
export const DEFAULT_VERIFY_OPTIONS: VerifyOptions = { maxAgeMs: 2 * 3_600_000, allowedSkewMs: 5 * 60_000 };

export type VerifyResult = { ok: true; ts: number } | { ok: false; error: SignatureError };

interface JoinExpectation {
  apiKey: string;
  apiSecret: string;
  meetingNumber: string;
  role: SdkRole;
}

/**
 * Checks a signature presented with a join. Accepts the SDK's URL-safe unpadded form and the
 * padded standard-base64 form the service's Node sample produced (the decoded text is the same).
 * Order of checks: the HMAC first (anything else would tell a forger which field to change), then
 * meeting number, role and age.
 */
export function verifySignature(signature: string, join: JoinExpectation, options: VerifyOptions = DEFAULT_VERIFY_OPTIONS): VerifyResult {
  const parts = decodeSignature(signature);
  if (!parts) return { ok: false, error: SIGNATURE_ERRORS.invalid };
  const [apiKey, meetingNumber, tsText, roleText, hash] = parts;
  if (apiKey !== join.apiKey || !/^\d+$/.test(tsText) || !/^[01]$/.test(roleText)) {
    return { ok: false, error: SIGNATURE_ERRORS.invalid };
  }
  const expected = Buffer.from(signatureHash(join.apiSecret, apiKey, meetingNumber, tsText, roleText));
  const given = Buffer.from(hash);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return { ok: false, error: SIGNATURE_ERRORS.invalid };
  }
  if (meetingNumber !== join.meetingNumber) return { ok: false, error: SIGNATURE_ERRORS.meetingNumber };
  if (Number(roleText) !== join.role) return { ok: false, error: SIGNATURE_ERRORS.role };
  const ts = Number(tsText);
  const now = options.now ?? Date.now();
  if (ts > now + options.allowedSkewMs || now - ts > options.maxAgeMs) return { ok: false, error: SIGNATURE_ERRORS.expired };
  return { ok: true, ts };
}

const BASE64_ANY = /^[A-Za-z0-9+/\-_]+={0,2}$/;

/**
 * The five fields, or undefined when the text is not a signature at all. Split from the right:
 * the hash, role, ts and meeting number never contain a dot, but nothing forbids one in a key.
 */
function decodeSignature(signature: string): [string, string, string, string, string] | undefined {
  if (!BASE64_ANY.test(signature)) return undefined;
  // Node's base64 decoder reads both alphabets, padded or not.
  const parts = Buffer.from(signature, 'base64').toString('utf8').split('.');
  if (parts.length < 5) return undefined;
  const [meetingNumber, ts, role, hash] = parts.slice(-4) as [string, string, string, string];
  return [parts.slice(0, -4).join('.'), meetingNumber, ts, role, hash];
}
