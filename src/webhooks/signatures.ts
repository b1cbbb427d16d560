import { createHash, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { hasControlCharacter } from '../shared/control-characters.js';
import { signatureDigest } from '../v2-contract/webhook-signature.js';

/**
 * Which events /webhooks/v2 believes, as the v2 service signs them today (src/v2-contract/webhook-signature.ts):
 * - from the headers alone, before a byte of the body is read: a well-formed `x-zm-signature` and an
 *   `x-zm-request-timestamp` (whole seconds) at most `maxAgeMs` ahead of now and at most
 *   `maxPastMs` behind it: as long as v1gate remembers the events it took, so a retry of an event it
 *   missed is taken whatever its first timestamp, and a replay of one it took is known for one
 *   (docs/decisions.md, "Push events across the service's retries");
 * - then the HMAC over the raw bytes read, compared in constant time, under each secret token
 *   accepted (the current one and, during a rotation, the previous one);
 * - a signature already taken is known (`taken`): the same bytes sent again (the service's retry of
 *   an event whose 2XX it did not see, or a replay) are answered 2XX and dropped. Only a verified
 *   signature is remembered, until its timestamp leaves the window, and at most REMEMBERED of them:
 *   one pushed out by newer ones meets the journal's own de-duplication of notification ids, so it
 *   still notifies nobody twice.
 * The old verification token (an `Authorization` header) is never read here.
 */

/** Verified signatures remembered at once (about 150 bytes each). */
export const REMEMBERED = 10_000;

export type Refusal = { status: 401 | 409; error: string };

/** What the headers claim: the time and the digest a body must match. */
export interface SignedHeaders {
  timestamp: string;
  digest: Buffer;
}

const SIGNATURE = /^v0=([0-9a-f]{64})$/;
const TIMESTAMP = /^\d{1,12}$/;

export class EventSignatures {
  private readonly secrets: readonly string[];
  private readonly seen: LRUCache<string, true>;

  private readonly maxPastMs: number;

  constructor(
    secrets: readonly (string | undefined)[],
    private readonly maxAgeMs: number,
    private readonly now: () => number = Date.now,
    /** How far behind now a timestamp may be: v1gate's memory of the events it took; at least `maxAgeMs`. */
    maxPastMs = maxAgeMs,
  ) {
    this.secrets = secrets.filter((s): s is string => !!s);
    if (this.secrets.some(hasControlCharacter)) throw new Error('a webhook secret token holds a control character');
    if (this.secrets.length === 0) throw new Error('the webhook intake needs a secret token');
    this.maxPastMs = Math.max(maxAgeMs, maxPastMs);
    // A signature may come again until its timestamp is maxPastMs behind now; one dated up to maxAgeMs ahead adds that.
    this.seen = new LRUCache<string, true>({ max: REMEMBERED, ttl: this.maxPastMs + maxAgeMs });
  }

  /** The headers' claim, or why the event is refused without reading its body. */
  claim(signature: string | undefined, timestamp: string | undefined): SignedHeaders | Refusal {
    const hex = SIGNATURE.exec(signature ?? '')?.[1];
    if (!hex || !timestamp || !TIMESTAMP.test(timestamp)) {
      return { status: 401, error: 'x-zm-signature (v0=<hex>) and x-zm-request-timestamp (seconds) are required' };
    }
    const aheadMs = Number(timestamp) * 1000 - this.now();
    if (aheadMs > this.maxAgeMs) {
      return { status: 401, error: `x-zm-request-timestamp is more than ${this.maxAgeMs / 1000} s ahead of now` };
    }
    if (-aheadMs > this.maxPastMs) {
      return {
        status: 401,
        error: `x-zm-request-timestamp is older than the ${this.maxPastMs / 1000} s v1gate remembers the events it took`,
      };
    }
    return { timestamp, digest: Buffer.from(hex, 'hex') };
  }

  /** The secret token that signed `body`, or undefined. Every secret is tried, so the time taken says nothing of which. */
  signer(claim: SignedHeaders, body: Buffer): string | undefined {
    let found: string | undefined;
    for (const secret of this.secrets) {
      if (timingSafeEqual(signatureDigest(secret, claim.timestamp, body), claim.digest)) found ??= secret;
    }
    return found;
  }

  /** A verified signature already taken: the same request sent again. */
  taken(claim: SignedHeaders): boolean {
    return this.seen.has(keyOf(claim));
  }

  /** A verified event was taken: its signature is refused from now on. */
  remember(claim: SignedHeaders): void {
    this.seen.set(keyOf(claim), true);
  }

  /** Whether `given` (the dead-letter routes' Authorization) is one of the secret tokens, in constant time. */
  isSecret(given: string | undefined): boolean {
    if (given === undefined || hasControlCharacter(given)) return false;
    const digest = sha256(given);
    let found = false;
    for (const secret of this.secrets) found = timingSafeEqual(digest, sha256(secret)) || found;
    return found;
  }
}

function keyOf(claim: SignedHeaders): string {
  return `${claim.timestamp}:${claim.digest.toString('base64')}`;
}

function sha256(text: string): Buffer {
  // Hashing first gives equal lengths, so the comparison leaks neither content nor length.
  return createHash('sha256').update(text).digest();
}
