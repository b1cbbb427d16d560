import { createHmac } from 'node:crypto';

/**
 * How the v2 service signs what it sends to an event endpoint today, with the app's secret token
 * (https://developers.zoom.us/docs/api/webhooks/#verify-webhook-events): `x-zm-request-timestamp`
 * is the time of sending in whole seconds, and `x-zm-signature` is `v0=` and the hex HMAC-SHA256 of
 * `v0:{timestamp}:{raw body}`. The URL validation challenge is answered with the hex HMAC-SHA256 of
 * its `plainToken` under the same secret. The sandbox signs with these and the intake verifies with
 * them; the service's own SDK checks both independently in test/webhooks/signed-events.test.ts.
 */

export const SIGNATURE_HEADER = 'x-zm-signature';
export const TIMESTAMP_HEADER = 'x-zm-request-timestamp';
export const URL_VALIDATION_EVENT = 'endpoint.url_validation';

/** The 32 bytes of the HMAC a signature carries (hex after `v0=`). */
export function signatureDigest(secretToken: string, timestamp: string, rawBody: Buffer | string): Buffer {
  return createHmac('sha256', secretToken).update(`v0:${timestamp}:`).update(rawBody).digest();
}

/** The `x-zm-signature` header of a body sent at `timestamp` (whole seconds, as text). */
export function signatureHeader(secretToken: string, timestamp: string, rawBody: Buffer | string): string {
  return `v0=${signatureDigest(secretToken, timestamp, rawBody).toString('hex')}`;
}

/** The `encryptedToken` that answers a URL validation challenge. */
export function encryptedToken(secretToken: string, plainToken: string): string {
  return createHmac('sha256', secretToken).update(plainToken).digest('hex');
}
