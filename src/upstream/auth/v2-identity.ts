import type { RateLimitPlan } from '../../v2-contract/rate-limit-plans.js';

/**
 * Whom v1gate acts as toward v2 for a mapped key: a JWT app's key and secret (signed as the v2 spec
 * says), or a server-to-server OAuth app, whose client id and secret are traded for an access token.
 * `plan`: the v2 account's plan, which sizes the budgets its calls spend (src/upstream/outbound-budget.ts).
 */
export type V2Identity =
  | { kind: 'jwt'; key: string; secret: string; plan?: RateLimitPlan }
  | { kind: 'oauth'; accountId: string; clientId: string; clientSecret: string; tokenUrl?: string; plan?: RateLimitPlan };
