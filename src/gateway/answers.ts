import type { Context, ErrorHandler, Hono, MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import { levelOf } from '../../mappings/errors.js';
import { bugBehind } from '../shared/failure.js';
import { failureKindOf, isBug, Refusal } from '../translators/kit/failures.js';
import { v1ErrorAnswer } from '../translators/kit/error-answer.js';
import { ROUTES } from '../shared/route-owners.js';
import type { InFlight } from './lifecycle.js';

/**
 * The gateway's own answers, around every part it mounts: a call refused while draining, an
 * exception no route caught, a path nothing matched. Whose a path is, and so how it is answered,
 * the route table says (src/shared/route-owners.ts).
 */

/** What answers a request, as a Hono app's `fetch` does (`env`: Node's request and response, under the server). */
export type Fetch = (request: Request, env?: unknown) => Response | Promise<Response>;

/**
 * Shutdown: in front of the whole app, so no new v1 call (or SDK signature) starts while draining.
 * A wrapper around the app's `fetch`, not a middleware for every path: with one, every request
 * matched two handlers at least and went through Hono's compose (an async dispatch per handler,
 * its closures and promises); without, a v1 call matches its one route and Hono calls it directly.
 * While serving, the guard costs one field read; while draining, the path is read as Hono reads it.
 */
export function drainGuarded(work: InFlight, app: Hono): Fetch {
  return (request, env) => {
    if (work.draining && ROUTES.namesCall(app.getPath(request, { env }))) {
      return v1ErrorAnswer(new Refusal('shutting-down'), { headers: { connection: 'close' } });
    }
    return app.fetch(request, env);
  };
}

/** A cluster worker names itself on every answer. */
export const workerTag =
  (workerId: string): MiddlewareHandler =>
  async (c, next) => {
    await next();
    try {
      c.res.headers.set('x-v1gate-worker', workerId);
    } catch {
      // a forwarded answer's headers may be read-only: it goes out without the tag
    }
  };

/**
 * An exception no route caught (an ops route, the webhook intake, the status page's replay, the
 * signer) gets an answer in its route's own format, never Hono's plain-text 500 nor a stack
 * trace: `{ error }` with HTTP 500 for the parts the table says answer plain JSON (the webhook
 * intake, the status page), the v1 envelope for everything else (HTTP 200 on the v1 and SDK paths, as every v1 answer; 500 elsewhere). The
 * connection closes: the request's state is unknown. The trace goes to the log, once per request.
 */
export const errorAnswer =
  (logger: Logger): ErrorHandler =>
  (error, c) => {
    const where = { method: c.req.method, path: c.req.path.slice(0, 256) };
    // A bug with its trace, at error level; a failure of the family at its row's level.
    if (isBug(error)) logger.error({ err: bugBehind(error), ...where }, 'unexpected error');
    else
      logger[levelOf(failureKindOf(error))]({ ...where, kind: failureKindOf(error), message: error.message }, 'failure no route answered');
    const close = { connection: 'close' };
    if (ROUTES.ownerOf(c.req.path)?.errors === 'plain-json') return c.json({ error: 'Internal gateway error.' }, 500, close);
    return v1ErrorAnswer(error, { status: ROUTES.namesCall(c.req.path) ? 200 : 500, headers: close });
  };

/**
 * Whatever matched nothing gets the v1 envelope, as every error v1gate writes (never a plain-text
 * 404): under /v1 and /sdk with v1's 200, elsewhere with 404, so a load balancer or a probe pointed
 * at a wrong path sees a failure, not a 200 (a cluster's primary answers so too). `/v1` and `/v1/`
 * themselves name no call and are such an elsewhere (the table's `calls`).
 */
export const unknownPathAnswer = (c: Context): Response => {
  const message = `Unknown path: ${c.req.path.slice(0, 256)}.`;
  return v1ErrorAnswer(new Refusal('unknown-path', message), { status: ROUTES.namesCall(c.req.path) ? 200 : 404 });
};
