import type { Context, Hono } from 'hono';
import { BodyReadError, readBody } from '../shared/request-body.js';

/**
 * A worker forwards what exists once per cluster — the embedded sandbox (/v2, /sandbox) and the
 * webhook service that owns the file journal (/webhooks) — to the primary's loopback server, so
 * the public port answers every path a single process answers.
 *
 * The body is read here first, by the one body reader and within this worker's request budget: a
 * body over the limit is refused before a byte of it is kept (a declared Content-Length) or as
 * soon as it passes the limit, and a slow one at the request's deadline, in the error format of
 * the service the path belongs to. Only a body that fits is sent on, with its length.
 */

/** Headers that describe one hop's connection, not the request. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'host', 'content-length'];

/** A refused body answered as the service behind the path answers errors: v2's `{code, message}`, the webhook intake's `{error}`. */
function refusedBody(prefix: string, error: BodyReadError): Response {
  const body = prefix === '/webhooks' ? { error: error.message } : { code: 300, message: error.message };
  return Response.json(body, { status: error.status });
}

export function forwardToHub(root: Hono, hubOrigin: string, prefixes: readonly string[]): void {
  const forward = async (c: Context, prefix: string): Promise<Response> => {
    const request = c.req.raw;
    const url = new URL(request.url);
    const headers = new Headers(request.headers);
    for (const name of HOP_BY_HOP) headers.delete(name);
    let body: Buffer | undefined;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      try {
        body = await readBody(c);
      } catch (error) {
        if (error instanceof BodyReadError) return refusedBody(prefix, error);
        throw error;
      }
    }
    try {
      const answer = await fetch(`${hubOrigin}${url.pathname}${url.search}`, {
        method: request.method,
        headers,
        ...(body ? { body } : {}),
        redirect: 'manual',
      });
      const out = new Headers(answer.headers);
      // fetch has already decoded and de-chunked the body: its framing is this hop's to set.
      for (const name of [...HOP_BY_HOP, 'content-encoding']) out.delete(name);
      return new Response(answer.body, { status: answer.status, headers: out });
    } catch {
      return Response.json({ error: 'the cluster primary is not answering' }, { status: 502 });
    }
  };
  for (const prefix of prefixes) {
    root.all(prefix, (c) => forward(c, prefix));
    root.all(`${prefix}/*`, (c) => forward(c, prefix));
  }
}
