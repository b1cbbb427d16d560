import { createHmac, randomBytes, randomInt } from 'node:crypto';

/**
 * Identifier generators shaped like the real service's, so that clients (and v1gate) never
 * depend on an id format the real service would not produce.
 */

/** Opaque user, account, group and registrant ids: 22 url-safe base64 characters, e.g. `z8yBXksaSQWf6ZvQ2Pp_pA`. */
export function opaqueId(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * An opaque id that is the same at every start for the same `identity` (the sandbox's fixed
 * credentials): HMAC-SHA256 of what the id is for, keyed by the identity, cut to the 16 bytes of
 * `opaqueId`. Nobody can tell it from a random one without the identity's secrets.
 */
export function derivedId(identity: string, purpose: string): string {
  return createHmac('sha256', identity).update(purpose).digest().subarray(0, 16).toString('base64url');
}

/** Meeting and webinar uuids: standard base64 of 16 bytes, e.g. `Bznyg6miT0mXhKWODoHA7A==`. */
export function meetingUuid(): string {
  return randomBytes(16).toString('base64');
}

/** Meeting and webinar numbers: 9 to 11 digits, never starting with 0. */
export function meetingNumber(): number {
  const digits = randomInt(9, 12);
  const min = 10 ** (digits - 1);
  return randomInt(min, Math.min(10 * min, Number.MAX_SAFE_INTEGER));
}

/** A numeric string of exactly `length` digits, not starting with 0 (pmi, host keys). */
export function digits(length: number): string {
  let out = String(randomInt(1, 10));
  while (out.length < length) out += String(randomInt(0, 10));
  return out;
}

/** An API key or secret for a sandbox account. */
export function apiCredential(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * The service's tracking id of one answer (`x-zm-trackingid`), shaped as public captures show it:
 * `v=2.0;clid=us06;rid=WEB_c2dbf35f925abc1348b866f06e637189` (a version, the cluster, a request id).
 */
export function trackingId(): string {
  return `v=2.0;clid=us06;rid=WEB_${randomBytes(16).toString('hex')}`;
}

const PASSCODE_CHARACTERS = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A meeting passcode the service generates when none is given: 6 letters and digits. */
export function passcode(): string {
  let out = '';
  while (out.length < 6) out += PASSCODE_CHARACTERS[randomInt(0, PASSCODE_CHARACTERS.length)];
  return out;
}

/** An encrypted passcode, shaped as the service's (`8pEkRweVXPV3Ob2KJYgFTRlDtl1gSn.1`). */
export function encryptedPasscode(): string {
  return `${randomBytes(22).toString('base64url').slice(0, 30)}.1`;
}
