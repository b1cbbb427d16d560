import { hash } from 'node:crypto';
import type { Credentials } from './credentials.js';

/**
 * A pair's proof: a hash of its api_key and api_secret, the key under which the caches that must
 * tell pairs apart (verified pairs, shared GETs, minted JWTs) hold them, so that no secret is kept
 * as text. Made once per credentials object and kept on it: a v1 call asks three times.
 */
export function pairProofOf(credentials: Credentials): string {
  return (credentials.proof ??= hash('sha256', `${credentials.apiKey}\n${credentials.apiSecret}`, 'base64'));
}
