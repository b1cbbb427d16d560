import { retryAfterSeconds } from '../shared/retry-after.js';
import { Failure } from '../shared/failure.js';

/**
 * An outbound call v1gate will not make within its limits: the gateway answers the v1 rate-limit
 * error (code 403) with Retry-After, and nothing more reaches v2.
 */

export type ExceededReason =
  /** The call would have to wait for a token past its deadline. */
  | 'deadline'
  /** Too many calls already wait for this key and class. */
  | 'queue-full'
  /** The class is held back (an upstream 429's Retry-After, or a spent daily quota): waiting would hold the client for nothing. */
  | 'paused';

export class RateLimitExceeded extends Failure {
  override readonly name = 'RateLimitExceeded';
  readonly kind = 'outbound-limited';

  constructor(
    readonly reason: ExceededReason,
    /** The v2 limit class (or v1 class) that was exhausted. */
    readonly limitClass: string,
    /** When it is worth trying again, as far as v1gate knows (ms). */
    readonly retryAfterMs: number,
  ) {
    // The words v1 clients see come from the failure table (mappings/errors.ts), not from here.
    super(`Rate limit of ${limitClass} exceeded (${reason}).`);
  }

  get retryAfterSeconds(): number {
    return retryAfterSeconds(this.retryAfterMs);
  }

  override v1Headers(): Record<string, string> {
    return { 'Retry-After': String(this.retryAfterSeconds) };
  }
}
