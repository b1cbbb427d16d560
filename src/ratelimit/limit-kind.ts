import { V2_LIMIT_TEXTS, type V2LimitKind } from '../../mappings/v2-limit-refusals.js';

export type { V2LimitKind } from '../../mappings/v2-limit-refusals.js';

/**
 * Whose limit a v2 429 met, from its message and its `X-RateLimit-Type` (the table in
 * mappings/v2-limit-refusals.ts). Only the account's limit is the account's: pausing every user's
 * calls of a category for one registrant's fourth registration, or for a text never seen before,
 * would stall all of them for something none of them did.
 */
export function v2LimitKindOf(message: string, rateLimitType: string | undefined): V2LimitKind {
  for (const row of V2_LIMIT_TEXTS) if (row.pattern.test(message)) return row.kind;
  // The service's per-second answers say so in their headers, whatever their text.
  if (rateLimitType?.toUpperCase() === 'QPS') return 'account';
  return 'unknown';
}
