import type { Hono } from 'hono';
import { ROUTES, type PartName } from '../shared/route-owners.js';

/**
 * A part's app, mounted only once every route it registered lies under its own prefixes in the
 * route table (src/shared/route-owners.ts): a part that answered a path the table gives another
 * part, or none, fails the gateway's build rather than shadow that path. The v1 facade and shadow
 * mode register one route for every path (`*`) and ask the table themselves which are theirs.
 */

/** The parts that match their paths by hand, as the table says, behind one route for every path. */
const MATCH_BY_HAND: readonly PartName[] = ['v1', 'shadow'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any part's app, whatever its bindings
export function owned<App extends Hono<any, any, any>>(parts: PartName | readonly PartName[], app: App): App {
  const own = typeof parts === 'string' ? [parts] : parts;
  for (const { method, path } of app.routes) {
    if (path === '*' || path === '/*') {
      if (own.some((part) => MATCH_BY_HAND.includes(part))) continue;
    } else {
      const owner = ROUTES.ownerOf(path)?.part;
      if (owner !== undefined && own.includes(owner)) continue;
    }
    const table = ROUTES.ownerOf(path)?.part ?? 'no part';
    throw new Error(`The ${own.join(' and ')} part answers ${method} ${path}, which the route table gives ${table}.`);
  }
  return app;
}
