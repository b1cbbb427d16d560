import { pathSegment } from './v2-path.js';
import { BEYOND_TODAY } from './v2-beyond-today.js';
import { TODAY_V2 } from './v2-today.js';
import type { RateLimitCategory, V2Scopes } from './v2-contract.js';

export type { RateLimitCategory, V2Scopes } from './v2-contract.js';

/**
 * A v2 route as the v2 spec writes it: a method and a path template (`GET /users/{userId}`). Every
 * v2 call the gateway makes goes to one (`route.at(id)` gives the path to send, each value encoded
 * as one segment), every endpoint declares the routes it calls, and what is said of a call — its
 * metrics label, its line in docs/coverage.md, whether it only reads — is read from its route.
 */

export type V2Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** A value of a `{param}`: encoded as one path segment. */
export type PathValue = string | number;

/** One value per `{param}` of a template, in order: `/groups/{groupId}/members/{memberId}` → [PathValue, PathValue]. */
export type PathValues<Template extends string> = Template extends `${string}{${string}}${infer Rest}`
  ? [PathValue, ...PathValues<Rest>]
  : [];

/**
 * A route's type carries its name (`'GET /users/{userId}'`), so each route of the catalogue has a
 * type of its own: what lets an endpoint's v2 client accept only the routes it declares
 * (src/translators/kit/define.ts). `V2Route` with the defaults is any route.
 */
export interface V2Route<
  out Method extends V2Method = V2Method,
  Values extends PathValue[] = PathValue[],
  out Name extends string = string,
> {
  readonly method: Method;
  /** The path as the v2 spec writes it: `/users/{userId}`. */
  readonly template: string;
  /** `GET /users/{userId}`: how logs, metrics, errors and docs/coverage.md name the route. */
  readonly name: Name;
  /** A GET: changes nothing on the v2 side, the only kind of call shadow mode may replay. */
  readonly reads: boolean;
  /** Its rate-limit label: the budget of the account each call spends. */
  readonly category: RateLimitCategory;
  /** The scopes a token needs to call it; null for a route neither today's documents nor `BEYOND_TODAY` know. */
  readonly scopes: V2Scopes | null;
  /** The route at these values (one per `{param}`, in order), each encoded as one path segment. */
  at(...values: Values): V2Target<Method, Name>;
}

/** A route with its path filled in: what the v2 client sends. Its type names its route, as the route's does. */
export interface V2Target<out Method extends V2Method = V2Method, out Name extends string = string> {
  readonly route: V2Route<Method, PathValue[], Name>;
  /** Relative to the v2 base, every value encoded. */
  readonly path: string;
}

/**
 * What is said of a route beyond its path, derived, never typed beside it: today's published
 * documents (src/v2-contract/v2-today.ts, generated from spec/reference/today), or for a route they
 * do not hold, its row in `BEYOND_TODAY`. A route neither knows is Light (the label of most
 * single-resource calls) with no scopes known; src/v2-contract/v2-routes.test.ts allows none in `V2`.
 */
function contractOf(name: string): { category: RateLimitCategory; scopes: V2Scopes | null } {
  const today = Object.hasOwn(TODAY_V2, name) ? TODAY_V2[name] : undefined;
  const todayScopes = today && { granular: today.granular, classic: today.classic };
  if (today?.category) return { category: today.category, scopes: todayScopes ?? null };
  const beyond = Object.hasOwn(BEYOND_TODAY, name) ? BEYOND_TODAY[name] : undefined;
  if (beyond === undefined) return { category: 'light', scopes: todayScopes ?? null };
  const borrowed = beyond.scopesOf === undefined ? undefined : TODAY_V2[beyond.scopesOf];
  const scopes = borrowed ? { granular: borrowed.granular, classic: borrowed.classic } : (beyond.scopes ?? todayScopes ?? null);
  return { category: beyond.category, scopes };
}

/**
 * The paths a template names, as a pattern: each `{param}` one path segment, a group of its own
 * when `capture` is asked (its value still percent-encoded), the rest literal.
 */
export function templatePattern(template: string, options: { capture?: boolean } = {}): RegExp {
  const literal = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  return new RegExp(`^${literal.replace(/\{[^}]+\}/g, options.capture ? '([^/]+)' : '[^/]+')}$`);
}

/** A route; its values are counted from the template, so `at` takes exactly one per `{param}`. */
export function v2Route<Method extends V2Method, Template extends `/${string}`>(
  method: Method,
  template: Template,
): V2Route<Method, PathValues<Template>, `${Method} ${Template}`> {
  // The literal text between the params: `/groups/`, `/members/`, ''.
  const literals = template.split(/\{[^}]+\}/);
  const name: `${Method} ${Template}` = `${method} ${template}`;
  const route: V2Route<Method, PathValues<Template>, `${Method} ${Template}`> = {
    method,
    template,
    name,
    reads: method === 'GET',
    ...contractOf(name),
    at(...values) {
      if (values.length !== literals.length - 1)
        throw new TypeError(`${route.name} takes ${literals.length - 1} path values, not ${values.length}.`);
      let path = literals[0]!;
      for (let i = 0; i < values.length; i++) path += pathSegment(values[i]!) + literals[i + 1]!;
      return { route, path };
    },
  };
  return Object.freeze(route);
}
