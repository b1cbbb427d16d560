import type { V2Scopes } from '../v2-contract/v2-route.js';
import { scopesToGrant } from '../translators/kit/scopes.js';

/**
 * The scopes to give an integration's new server-to-server app: those the gateway itself names for
 * the routes it will call (kit/scopes.ts `scopesToGrant`, the policy docs/scopes.md states: each
 * route's account-wide `:admin` scope where it has one, a route with no granular scope named by its
 * classic one), so the recipe never asks for other scopes than v1gate's refusals and docs do.
 */

export interface ScopesToRequest {
  granular: string[];
  classic: string[];
  /** Routes whose scopes neither today's documents nor the rows beyond them give. */
  unknown: string[];
}

export function scopesToRequest(routes: readonly { route: string; scopes: V2Scopes | null }[]): ScopesToRequest {
  const { granular, classic } = scopesToGrant(routes);
  const unknown = routes.filter((route) => route.scopes === null).map((route) => route.route);
  return { granular: [...new Set(granular)].sort(), classic: [...new Set(classic)].sort(), unknown };
}
