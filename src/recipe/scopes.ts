import type { V2Scopes } from '../v2-contract/v2-route.js';

/**
 * The scopes to give an integration's new server-to-server app: for each route it will call, one
 * scope that opens it (a token opens a route with any one of the route's scopes), chosen so the
 * list stays short: a scope already chosen for another route is used again, else the route's
 * account-wide `:admin` scope, which a server-to-server app acting for the whole account needs.
 */

export interface ScopesToRequest {
  granular: string[];
  classic: string[];
  /** Routes whose scopes neither today's documents nor the rows beyond them give. */
  unknown: string[];
}

function pick(options: readonly string[], chosen: Set<string>): void {
  if (options.length === 0 || options.some((scope) => chosen.has(scope))) return;
  chosen.add(options.find((scope) => scope.endsWith(':admin')) ?? options[0]!);
}

export function scopesToRequest(routes: readonly { route: string; scopes: V2Scopes | null }[]): ScopesToRequest {
  const granular = new Set<string>();
  const classic = new Set<string>();
  const unknown: string[] = [];
  for (const { route, scopes } of routes) {
    if (!scopes) {
      unknown.push(route);
      continue;
    }
    pick(scopes.granular, granular);
    pick(scopes.classic, classic);
  }
  return { granular: [...granular].sort(), classic: [...classic].sort(), unknown };
}
