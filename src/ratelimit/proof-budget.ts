import type { BucketRef, BucketStore } from './bucket-store.js';
import type { OutboundLimiter, V2Budget } from './outbound-limiter.js';
import type { RateLimitCategory } from '../v2-contract/v2-route.js';
import type { BucketSpec } from '../shared/token-bucket.js';

/**
 * How many pairs v2 may be asked to prove: the v2 calls sent for api_secrets v2 has not accepted
 * lately (src/upstream/pair-proof.ts). Anyone who knows an api_key can send such calls, so they
 * take none of the key's own tokens; these buckets bound them instead, per key and across every
 * key. The numbers and why are in docs/decisions.md ("Unproven secrets").
 */
export interface ProofLimits {
  /** Proofs per api_key. */
  perKey: BucketSpec;
  /** Proofs across all keys. */
  total: BucketSpec;
}

export const PROOF_LIMITS: ProofLimits = {
  perKey: { ratePerSecond: 100, burst: 100 },
  total: { ratePerSecond: 500, burst: 500 },
};

/**
 * How many unremembered secrets of keys the credential map names may be hashed (src/upstream/auth/):
 * each check is a scrypt derivation (milliseconds of CPU), so far fewer than v2 proofs. The numbers
 * and why are in docs/decisions.md ("Credential map").
 */
export const SECRET_CHECK_LIMITS: ProofLimits = {
  perKey: { ratePerSecond: 10, burst: 20 },
  total: { ratePerSecond: 40, burst: 40 },
};

export class ProofLimiter {
  /** The key of every key's buckets together: `*` is no api_key's bucket (those are `<name>:{<key>}`). */
  private readonly allKeys: string;

  constructor(
    private readonly store: BucketStore,
    private readonly limits: ProofLimits = PROOF_LIMITS,
    /** The buckets' name: `proof` for v2 proofs, another for another budget of the same shape. */
    private readonly name = 'proof',
  ) {
    this.allKeys = `${name}:{*}`;
  }

  /** One proof for `apiKey`, taken from its bucket and the total's, both or neither. */
  take(apiKey: string): { allowed: boolean; retryAfterMs: number } | Promise<{ allowed: boolean; retryAfterMs: number }> {
    const refs: BucketRef[] = [
      { key: `${this.name}:{${apiKey}}`, spec: this.limits.perKey },
      { key: this.allKeys, spec: this.limits.total },
    ];
    // A store that can answer at once (memory, a held lease) does: no promise to await.
    const now = this.store.takeNow?.(refs);
    if (now) return { allowed: now.allowed, retryAfterMs: now.retryAfterMs };
    return this.store.take(refs).then((outcome) => ({ allowed: outcome.allowed, retryAfterMs: outcome.retryAfterMs }));
  }
}

/**
 * Charges a call v2 has already accepted to its account's outbound buckets: the next token of its account
 * and class goes to it, ahead of every waiter, as an undo's does (outbound-limiter.ts), so the
 * key's later calls wait exactly as long as if it had waited for its token first. The upstream
 * counted it; v1gate must too, or its own buckets would let one call too many through.
 */
export function chargeAccepted(outbound: OutboundLimiter, budget: V2Budget, category: RateLimitCategory): void {
  outbound
    .schedule(budget, category, () => undefined, { priority: 'undo', maxWaitMs: CHARGE_WAIT_MS })
    .catch(() => {
      // Refused only when the class is held back (an upstream 429, a spent day) or no token came in a
      // minute: v2 is then refusing the key itself, and nothing is left to hold back.
    });
}

/** How long a charge may wait for its token before it is owed no more (ms). */
const CHARGE_WAIT_MS = 60_000;
