import { TODAY_V2 } from '../../v2-contract/v2-today.js';
import { BEYOND_TODAY } from '../../v2-contract/v2-beyond-today.js';
import type { V2Route, V2Scopes } from '../../v2-contract/v2-route.js';
import type { EndpointDefinition } from './define.js';

/**
 * The scopes a v1 endpoint needs of its v2 app, read from the routes it declares (`v2Calls` and
 * `v2Undo`) and today's documents (each route's `scopes`): a token may call a route when it holds
 * any one of the route's granular or classic scopes, and an endpoint may call every route it
 * declares, so it needs one scope of each. docs/scopes.md is rendered from here.
 */

/** Every route an endpoint may call: its calls, then its undos. */
export const routesOf = (endpoint: Pick<EndpointDefinition, 'v2Calls' | 'v2Undo'>): readonly V2Route[] => [
  ...new Set([...endpoint.v2Calls, ...(endpoint.v2Undo ?? [])]),
];

/** The routes an endpoint cannot do without: every route it may call but those it does without (`v2Optional`). */
export const requiredRoutesOf = (endpoint: Pick<EndpointDefinition, 'v2Calls' | 'v2Undo' | 'v2Optional'>): readonly V2Route[] => {
  const optional = new Set<V2Route>(endpoint.v2Optional?.routes ?? []);
  return routesOf(endpoint).filter((route) => !optional.has(route));
};

/** Whether a token of `held` may call `route`: it holds one of the route's scopes, or they are not known. */
export const opens = (held: readonly string[] | undefined, route: V2Route): boolean =>
  !judgeable(held) || routesNotCovered(held, [route]).length === 0;

/** The scope to grant for a route: its `:admin` form (a server-to-server app acts for the whole account), else its first. */
const preferred = (scopes: readonly string[]): string | undefined => scopes.find((s) => s.endsWith(':admin')) ?? scopes[0];

/**
 * The granular scopes (one per route) and the classic ones (one per route) that let an app call
 * every route of `routes`: the one policy for naming scopes, used by the gateway's refusals,
 * docs/scopes.md and the way-out recipe (src/recipe/scopes.ts) alike, so none names another scope.
 */
export function scopesToGrant(routes: readonly Pick<V2Route, 'scopes'>[]): V2Scopes {
  const granular = new Set<string>();
  const classic = new Set<string>();
  for (const { scopes } of routes) {
    if (!scopes) continue;
    const g = preferred(scopes.granular);
    const c = preferred(scopes.classic);
    if (g) granular.add(g);
    else if (c) granular.add(c);
    if (c) classic.add(c);
  }
  return { granular: [...granular], classic: [...classic] };
}

/** The routes of `routes` none of `held` opens. */
export const routesNotCovered = (held: readonly string[], routes: readonly V2Route[]): V2Route[] =>
  routes.filter((route) => route.scopes !== null && ![...route.scopes.granular, ...route.scopes.classic].some((s) => held.includes(s)));

/** The scopes to add for `held` to cover `routes`: the granular (else classic) scope to grant, one per route not covered. */
export const missingScopes = (held: readonly string[], routes: readonly V2Route[]): string[] => [
  ...scopesToGrant(routesNotCovered(held, routes)).granular,
];

let vocabulary: Set<string> | undefined;

/**
 * Whether a token's scopes can be judged: at least one is a scope today's documents name. A token
 * that lists none of them (the sandbox's full-access `account:master`, an answer without `scope`)
 * is not judged here; v2 still answers 4711 for what it cannot do.
 */
export function judgeable(held: readonly string[] | undefined): held is readonly string[] {
  if (held === undefined) return false;
  vocabulary ??= new Set([
    ...Object.values(TODAY_V2).flatMap((op) => [...op.granular, ...op.classic]),
    ...Object.values(BEYOND_TODAY).flatMap((row) => [...(row.scopes?.granular ?? []), ...(row.scopes?.classic ?? [])]),
  ]);
  return held.some((scope) => vocabulary!.has(scope));
}

/** The v1 endpoints of `endpoints` a token of `held` cannot serve, each with the scopes it lacks; none when `held` cannot be judged. */
export function endpointsNotServed(
  held: readonly string[] | undefined,
  endpoints: readonly EndpointDefinition[],
): { path: string; missing: string[] }[] {
  if (!judgeable(held)) return [];
  return endpoints
    .map((endpoint) => ({ path: endpoint.path, missing: missingScopes(held, requiredRoutesOf(endpoint)) }))
    .filter((row) => row.missing.length > 0);
}
