import { V1_LIMIT_CLASSES, type LimitDef } from '../../mappings/rate-limits.js';

/**
 * Which v1 limit class a path falls in, compiled once from the tables in mappings/rate-limits.ts.
 * (A v2 call's budget is no path match: each typed v2 route declares its category.)
 */

export interface ClassifiedPath {
  name: string;
  limits: readonly LimitDef[];
  /** Whose buckets a request spends: its class's, or for a class counted per endpoint, its own path's (`list-billing-plan:/v1/user/list`). */
  bucket: string;
}

/** `/V1/User/List/?x=1` → `/v1/user/list`: no query, no trailing slash, lower case. */
export function normalizePath(path: string): string {
  let p = path;
  const cut = p.search(/[?#]/);
  if (cut >= 0) p = p.slice(0, cut);
  p = p.toLowerCase().replace(/\/{2,}/g, '/');
  if (!p.startsWith('/')) p = `/${p}`;
  if (p.length > 1) p = p.replace(/\/+$/, '');
  return p;
}

/** Compile a table pattern: `*` = one or more whole segments, `{name}` = one segment. */
export function compilePattern(pattern: string): RegExp {
  const source = normalizePath(pattern)
    .split('/')
    .map((segment) => {
      if (segment === '*') return '[^/]+(?:/[^/]+)*';
      if (/^\{[^}]+\}$/.test(segment)) return '[^/]+';
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${source}$`);
}

const v1Matchers = V1_LIMIT_CLASSES.map((c) => ({ limitClass: c, patterns: c.paths.map(compilePattern) }));

/**
 * The v1 class of a request path. Accepts the path as the gateway sees it (`/v1/user/list`), in
 * any case, with or without trailing slash or query; a path without the `/v1` prefix is read as
 * relative to it.
 */
export function classifyV1Path(path: string): ClassifiedPath {
  let p = normalizePath(path);
  if (!/^\/v1(\/|$)/.test(p)) p = `/v1${p === '/' ? '' : p}`;
  const found = v1Matchers.find((m) => m.patterns.some((re) => re.test(p)));
  // The table ends with the catch-all `/v1/*`; only `/v1` itself falls through, and it is general.
  const c = found?.limitClass ?? V1_LIMIT_CLASSES[V1_LIMIT_CLASSES.length - 1]!;
  return { name: c.name, limits: c.limits, bucket: c.perEndpoint ? `${c.name}:${p}` : c.name };
}

/**
 * `classify` remembered per distinct input, for the limiters' hot paths (a path is classified once,
 * not once per call). Callers may pass paths with ids in them, so at most `max` inputs are kept:
 * past that the memory starts again.
 */
export function remembered<T>(classify: (input: string) => T, max = 1_000): (input: string) => T {
  const known = new Map<string, T>();
  return (input) => {
    let found = known.get(input);
    if (found === undefined) {
      found = classify(input);
      if (known.size >= max) known.clear();
      known.set(input, found);
    }
    return found;
  };
}
