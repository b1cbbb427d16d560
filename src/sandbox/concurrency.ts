import type { MiddlewareHandler } from 'hono';
import type { SandboxEnv } from './context.js';
import { SandboxError } from './errors.js';
import { CONCURRENT_REQUESTS_MESSAGE } from './rate-limit.js';
import { trackingId } from './ids.js';

/**
 * Updates of one resource the service refuses to run two at a time ("Some APIs have limits on
 * concurrent operations performed on a single resource, for example: simultaneous updates to a
 * single user's settings", the rate-limits page): a user, its settings, a meeting, a webinar.
 */
const SINGLE_RESOURCE_UPDATES: readonly RegExp[] = [
  /^PATCH \/users\/[^/]+(\/settings)?$/,
  /^PATCH \/meetings\/[^/]+$/,
  /^PATCH \/webinars\/[^/]+$/,
];

/**
 * The per-resource concurrency refusal: while one update of a resource is in flight (its body
 * still coming, say), another of the same resource is answered 429 "Too many concurrent
 * requests", and nothing else is held back. `relative` is the path under /v2.
 */
export function oneUpdateAtATime(relative: (path: string) => string): MiddlewareHandler<SandboxEnv> {
  const inFlight = new Set<string>();
  return async (c, next) => {
    const request = `${c.req.method} ${relative(c.req.path)}`;
    if (!SINGLE_RESOURCE_UPDATES.some((pattern) => pattern.test(request))) return next();
    const key = `${c.get('account').id} ${request}`;
    if (inFlight.has(key)) throw new SandboxError(429, 429, CONCURRENT_REQUESTS_MESSAGE);
    inFlight.add(key);
    try {
      await next();
    } finally {
      inFlight.delete(key);
    }
  };
}

/** Every answer carries the service's tracking id of it, which its support asks for. */
export const withTrackingId: MiddlewareHandler = async (c, next) => {
  c.header('x-zm-trackingid', trackingId());
  await next();
};
