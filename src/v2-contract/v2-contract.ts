/**
 * The words of a v2 operation's contract that the route catalogue (v2-route.ts), today's generated
 * table (v2-today.ts) and the rows beyond it (v2-beyond-today.ts) share, in a module of their own so
 * none of them imports another in a circle.
 */

/**
 * The rate-limit label the v2 reference gives each endpoint ("Rate Limit Label"): which of the
 * account's per-plan budgets a call spends (docs/live-evidence.md, "Today's v2 rate limits").
 */
export type RateLimitCategory = 'light' | 'medium' | 'heavy' | 'resource-intensive';

/**
 * The OAuth scopes that let a token call a route: any one granular scope or any one classic scope
 * of its lists (today's documents, `x-extensions`). An empty list is one no scope of that kind opens.
 */
export interface V2Scopes {
  readonly granular: readonly string[];
  readonly classic: readonly string[];
}
