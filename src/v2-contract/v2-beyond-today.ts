import type { RateLimitCategory, V2Scopes } from './v2-contract.js';

/**
 * The v2 routes the gateway calls that today's published documents (spec/reference/today) do not
 * hold, each with what the documents would have said and why it is said here instead. Everything
 * else a route carries is read from the documents (src/v2-contract/v2-today.ts); a route of `V2` in
 * neither fails src/v2-contract/v2-routes.test.ts, and a row here for a route the documents hold fails it too.
 */
export interface BeyondToday {
  readonly category: RateLimitCategory;
  /** The scopes, where a source names them; or `scopesOf`, the operation of today's documents whose scopes it shares. */
  readonly scopes?: V2Scopes;
  readonly scopesOf?: string;
  readonly why: string;
}

const MASTER =
  'A master-account API: the service documents these apart from the product documents (spec/reference/today/README.md). Category as the rate-limit page\'s rules give it (docs/live-evidence.md, "Today\'s v2 rate limits"); the classic scope is the one its reference page names (`Scope: account:read:admin` / `account:write:admin`, the 2018-era page); no granular scope is published for it, so only the classic scope opens it.';
const masterRead = { granular: [], classic: ['account:read:admin'] } as const;
const masterWrite = { granular: [], classic: ['account:write:admin'] } as const;
const RETIRED =
  "Retired (RETIRED in src/v2-contract/v2-routes.ts), so gone from today's documents: it keeps the category it had, and takes the scopes of its replacement, the service's scopes for the same data today.";

export const BEYOND_TODAY: Readonly<Record<string, BeyondToday>> = {
  'GET /accounts': { category: 'medium', scopes: masterRead, why: MASTER },
  'POST /accounts': { category: 'light', scopes: masterWrite, why: MASTER },
  'GET /accounts/{accountId}': { category: 'light', scopes: masterRead, why: MASTER },
  'DELETE /accounts/{accountId}': { category: 'light', scopes: masterWrite, why: MASTER },
  'PATCH /accounts/{accountId}/options': { category: 'light', scopes: masterWrite, why: MASTER },
  'GET /accounts/{accountId}/billing': { category: 'light', scopes: masterRead, why: MASTER },
  'PATCH /accounts/{accountId}/billing': { category: 'light', scopes: masterWrite, why: MASTER },
  'GET /accounts/{accountId}/plans': { category: 'light', scopes: masterRead, why: MASTER },
  'POST /accounts/{accountId}/plans': { category: 'light', scopes: masterWrite, why: MASTER },
  'POST /accounts/{accountId}/plans/addons': { category: 'light', scopes: masterWrite, why: MASTER },
  'PUT /accounts/{accountId}/plans/base': { category: 'light', scopes: masterWrite, why: MASTER },
  'PUT /accounts/{accountId}/plans/addons': { category: 'light', scopes: masterWrite, why: MASTER },
  'GET /metrics/im': { category: 'resource-intensive', scopesOf: 'GET /metrics/chat', why: RETIRED },
  'GET /im/chat/sessions': { category: 'medium', scopesOf: 'GET /chat/users/{userId}/sessions', why: RETIRED },
  'GET /im/chat/sessions/{sessionId}': { category: 'medium', scopesOf: 'GET /chat/users/{userId}/messages', why: RETIRED },
  'GET /users/zpk': { category: 'light', scopesOf: 'GET /users/{userId}/token', why: RETIRED },
};
