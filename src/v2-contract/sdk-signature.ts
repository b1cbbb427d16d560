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

/**
 * Today's Meeting SDK signature: an HS256 JWT signed with an SDK app's secret, its claims exactly
 * as the service's own sample makes them (github.com/zoom/meetingsdk-auth-endpoint-sample,
 * src/index.js): `appKey` and `sdkKey` both the SDK key, `mn`, `role`, `iat`, `exp`, and `tokenExp`
 * equal to `exp`; `video_webrtc_mode` only when the page asks for it. `iat` is 30 s in the past
 * (the service's docs, so a signer's clock a little ahead is not "from the future"), and the
 * lifetime `exp − iat` lies between 30 minutes and 48 hours (the sample refuses anything else).
 */
export const JWT_LIFETIME_SECONDS = { min: 1_800, max: 172_800, default: 7_200 } as const;
export const JWT_BACKDATE_SECONDS = 30;

export interface JwtSignatureInput {
  sdkKey: string;
  sdkSecret: string;
  meetingNumber: string;
  role: SdkRole;
  /** exp − iat, within JWT_LIFETIME_SECONDS; the default when absent. */
  expirationSeconds?: number;
  /** 0 or 1: the SDK's WebRTC video mode, signed only when given. */
  videoWebrtcMode?: 0 | 1;
}

export interface JwtSignatureClaims {
  appKey: string;
  sdkKey: string;
  mn: number;
  role: SdkRole;
  iat: number;
  exp: number;
  tokenExp: number;
  video_webrtc_mode?: 0 | 1;
}

const JWT_HEADER = { alg: 'HS256', typ: 'JWT' } as const;
const jsonPart = (value: object) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
const hs256 = (secret: string, signingInput: string) => createHmac('sha256', secret).update(signingInput).digest('base64url');

export function generateJwtSignature(input: JwtSignatureInput, nowMs: number = Date.now()): string {
  const lifetime = input.expirationSeconds ?? JWT_LIFETIME_SECONDS.default;
  if (!Number.isInteger(lifetime) || lifetime < JWT_LIFETIME_SECONDS.min || lifetime > JWT_LIFETIME_SECONDS.max) {
    throw new RangeError(`expirationSeconds must be a whole number from ${JWT_LIFETIME_SECONDS.min} to ${JWT_LIFETIME_SECONDS.max}.`);
  }
  const iat = Math.floor(nowMs / 1000) - JWT_BACKDATE_SECONDS;
  const exp = iat + lifetime;
  const claims: JwtSignatureClaims = {
    appKey: input.sdkKey,
    sdkKey: input.sdkKey,
    mn: Number(input.meetingNumber),
    role: input.role,
    iat,
    exp,
    tokenExp: exp,
    ...(input.videoWebrtcMode === undefined ? {} : { video_webrtc_mode: input.videoWebrtcMode }),
  };
  const signingInput = `${jsonPart(JWT_HEADER)}.${jsonPart(claims)}`;
  return `${signingInput}.${hs256(input.sdkSecret, signingInput)}`;
}

/** Whether a signature is today's JWT form rather than the 1.9.1 one (which has no dot outside its base64). */
export const isJwtSignature = (signature: string) => signature.split('.').length === 3;

/** The SDK key a JWT signature names (unverified: it says which secret to check it with), if any. */
export function jwtSdkKey(signature: string): string | undefined {
  const claims = decodeJwtPart(signature.split('.')[1] ?? '');
  const key = claims?.['appKey'] ?? claims?.['sdkKey'];
  return typeof key === 'string' ? key : undefined;
}

export type JwtVerifyResult = { ok: true; claims: JwtSignatureClaims } | { ok: false; error: SignatureError };

/**
 * Checks a JWT signature as the service applies its claims: HS256 over the SDK secret first, then
 * the claims' forms (`appKey` among them), the lifetime bounds (exp at least 30 minutes and at most 48 hours after iat,
 * tokenExp at least 30 minutes after iat), iat not in the future beyond the skew, not expired, and
 * only then the meeting number (role is the caller's to read from the claims).
 */
export function verifyJwtSignature(
  signature: string,
  expect: { sdkSecret: string; meetingNumber: string },
  options: Pick<VerifyOptions, 'allowedSkewMs' | 'now'> = DEFAULT_VERIFY_OPTIONS,
): JwtVerifyResult {
  const invalid = { ok: false, error: SIGNATURE_ERRORS.invalid } as const;
  const [header, payload, mac, ...rest] = signature.split('.');
  if (header === undefined || payload === undefined || mac === undefined || rest.length > 0) return invalid;
  const expected = Buffer.from(hs256(expect.sdkSecret, `${header}.${payload}`));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return invalid;
  const head = decodeJwtPart(header);
  const claims = decodeJwtPart(payload);
  if (head?.['alg'] !== 'HS256' || !claims) return invalid;
  const { appKey, mn, role, iat, exp, tokenExp } = claims;
  const whole = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
  // Since SDK v5 the key is `appKey` (the older `sdkKey` alone is refused as the service refuses it:
  // docs/live-evidence.md, "Today's meeting SDK signature").
  if (typeof appKey !== 'string' || !whole(iat) || !whole(exp) || !whole(tokenExp)) return invalid;
  if (role !== 0 && role !== 1) return { ok: false, error: SIGNATURE_ERRORS.role };
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  if (exp - iat < JWT_LIFETIME_SECONDS.min || exp - iat > JWT_LIFETIME_SECONDS.max || tokenExp - iat < JWT_LIFETIME_SECONDS.min)
    return invalid;
  if (iat > now + Math.floor(options.allowedSkewMs / 1000) || exp <= now) return { ok: false, error: SIGNATURE_ERRORS.expired };
  if (String(mn) !== expect.meetingNumber) return { ok: false, error: SIGNATURE_ERRORS.meetingNumber };
  return { ok: true, claims: claims as unknown as JwtSignatureClaims };
}

function decodeJwtPart(part: string): Record<string, unknown> | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(part)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
