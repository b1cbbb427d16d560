/**
 * Who owns which path of the gateway's public app: every part's path prefixes, declared once, as
 * data. The parts build their routes under these prefixes; the server, the v1 facade, shadow mode,
 * a cluster's forwarding and the gateway's own answers (the drain guard, the error handler, the
 * not-found answer) ask this table whose a path is, and no one keeps a pattern of its own. Down
 * here, at the bottom, because the HTTP server, the ways in and the embedded sandbox all read it.
 *
 * A path's owner is found in any letter case and across runs of slashes (`//V1/User/Get` is v1's),
 * as legacy clients write paths; each part's own routes then match as they are written, but v1's,
 * which the facade matches in any case itself.
 */

/** The parts of the gateway that answer paths, each mounted once (src/gateway.ts). */
export type PartName = 'sandbox' | 'webhooks' | 'ops' | 'signer' | 'downloads' | 'shadow' | 'v1';

/** How a part answers its errors: the v1 envelope, the intake's and status page's `{ error }`, or v2's `{ code, message }`. */
export type ErrorFormat = 'v1' | 'plain-json' | 'v2';

export interface OwnedPrefix {
  /** The path prefix, one segment or more, no trailing slash: the part owns it and every path under it. */
  readonly prefix: `/${string}`;
  readonly part: PartName;
  readonly errors: ErrorFormat;
  /**
   * A path under it names a call a client makes (a v1 call, a signature): it is refused while
   * draining, counted in flight, and answered with v1's HTTP 200 when it fails. The prefix itself
   * (`/v1`, `/v1/`) names no call: it is answered as any path no part serves.
   */
  readonly calls?: true;
}

/** The table. A new way in is a row here and its part in src/gateway/. */
export const ROUTE_OWNERS = {
  // The embedded sandbox, as the v2 service lays out its own addresses; once per cluster (the primary's).
  v2: { prefix: '/v2', part: 'sandbox', errors: 'v2' },
  sandboxControl: { prefix: '/sandbox', part: 'sandbox', errors: 'v2' },
  oauth: { prefix: '/oauth', part: 'sandbox', errors: 'v2' },
  recordings: { prefix: '/rec', part: 'sandbox', errors: 'v2' },
  webhooks: { prefix: '/webhooks', part: 'webhooks', errors: 'plain-json' },
  metrics: { prefix: '/metrics', part: 'ops', errors: 'v1' },
  healthz: { prefix: '/healthz', part: 'ops', errors: 'v1' },
  readyz: { prefix: '/readyz', part: 'ops', errors: 'v1' },
  status: { prefix: '/status', part: 'ops', errors: 'plain-json' },
  sdk: { prefix: '/sdk', part: 'signer', errors: 'v1', calls: true },
  downloads: { prefix: '/downloads', part: 'downloads', errors: 'v1' },
  shadowReport: { prefix: '/shadow', part: 'shadow', errors: 'v1' },
  v1: { prefix: '/v1', part: 'v1', errors: 'v1', calls: true },
} as const satisfies Record<string, OwnedPrefix>;

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A prefix as a pattern: its segments with runs of slashes before and between them, in any case. */
const prefixPattern = (prefix: string) => prefix.split('/').filter(Boolean).map(escaped).join('/+');

/** A path under one of the prefixes, naming something below it: one segment at least, after any run of slashes. */
const callPattern = (prefixes: string[]) =>
  prefixes.length ? new RegExp(`^/+(?:${prefixes.map(prefixPattern).join('|')})/+[^/?#]`, 'i') : /(?!)/;

/** What one table answers about a path; made once, as the patterns are built from the rows. */
export class RouteTable<Name extends string = string> {
  readonly #byPrefix = new Map<string, Name>();
  readonly #owner: RegExp;
  readonly #call: RegExp;
  readonly #callOf = new Map<PartName, RegExp>();
  readonly #under = new Map<Name, RegExp>();

  constructor(readonly rows: Readonly<Record<Name, OwnedPrefix>>) {
    const names = Object.keys(rows) as Name[];
    for (const name of names) {
      this.#under.set(name, new RegExp(`^/+${prefixPattern(rows[name].prefix)}(?:/|$)`, 'i'));
      const key = rows[name].prefix.toLowerCase();
      if (this.#byPrefix.has(key)) throw new Error(`Two parts own ${key}`);
      this.#byPrefix.set(key, name);
    }
    // Longest first: a prefix inside another (`/a` and `/a/b`) leaves the path to the longer one.
    const all = names.map((name) => rows[name].prefix).sort((a, b) => b.length - a.length);
    this.#owner = new RegExp(`^/+(${all.map(prefixPattern).join('|')})(?:/|$)`, 'i');
    this.#call = callPattern(names.filter((name) => rows[name].calls).map((name) => rows[name].prefix));
    for (const part of new Set(names.filter((name) => rows[name].calls).map((name) => rows[name].part))) {
      this.#callOf.set(part, callPattern(this.prefixesOf(part).filter((prefix) => this.ownerOf(prefix)?.calls)));
    }
  }

  /** The row that owns a path (the prefix itself, or a path under it), or undefined: no part serves it. */
  nameOf(path: string): Name | undefined {
    const match = this.#owner.exec(path);
    if (!match) return undefined;
    const found = match[1]!;
    // A prefix of several segments matched across runs of slashes: its key has one between each.
    const segments = found.includes('/') ? found.split('/').filter(Boolean).join('/') : found;
    return this.#byPrefix.get(`/${segments.toLowerCase()}`);
  }

  /** Whether a path is one row's (its prefix, or a path under it): one pattern, for a check on every request. */
  isUnder(name: Name, path: string): boolean {
    return this.#under.get(name)?.test(path) ?? false;
  }

  ownerOf(path: string): OwnedPrefix | undefined {
    const name = this.nameOf(path);
    return name === undefined ? undefined : this.rows[name];
  }

  /** Whether a path names a call a client makes: under a prefix of `calls`, with something below it (not `/v1/`). */
  namesCall(path: string): boolean {
    return this.#call.test(path);
  }

  /** Whether a path is one of a part's calls (`/v1/user/get` for v1): what that part's own matcher asks. */
  namesCallOf(part: PartName, path: string): boolean {
    return this.#callOf.get(part)?.test(path) ?? false;
  }

  /** The prefixes a part owns, in the table's order. */
  prefixesOf(part: PartName): string[] {
    return (Object.keys(this.rows) as Name[]).filter((name) => this.rows[name].part === part).map((name) => this.rows[name].prefix);
  }
}

/** A path below a prefix, as written (`/v2/users` below `/v2` is `/users`; the prefix itself is `/`); a path not under it, as it is. */
export function pathBelow(prefix: string, path: string): string {
  if (!path.startsWith(prefix) || (path.length > prefix.length && path[prefix.length] !== '/')) return path;
  return path.slice(prefix.length) || '/';
}

/** The gateway's table. */
export const ROUTES = new RouteTable(ROUTE_OWNERS);

/** A row's prefix by name: what a part builds its routes under (`${prefixOf('webhooks')}/v2`). */
export const prefixOf = <Name extends keyof typeof ROUTE_OWNERS>(name: Name): (typeof ROUTE_OWNERS)[Name]['prefix'] =>
  ROUTE_OWNERS[name].prefix;
