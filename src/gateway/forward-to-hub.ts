import type { Context, Hono } from 'hono';
import { BodyReadError, readBody } from '../http/request-body.js';
import { ROUTES } from '../shared/route-owners.js';

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

/**
 * Headers that describe one hop's connection, not the request (RFC 9110, 7.6.1), and its framing.
 * `Expect: 100-continue` is one hop's too: this worker's server has already told the client to go
 * on and has read the whole body, so the primary has nothing to wait for (and undici refuses to
 * send the header at all: curl adds it by itself to bodies over 1 KiB before 7.69.0, over 1 MiB since).
 */
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
  'host',
  'content-length',
];

/** An error answered as the service behind the path answers errors (the route table says): v2's `{code, message}`, the webhook intake's `{error}`. */
function errorAnswer(prefix: string, status: number, message: string, code = 300): Response {
  const body = ROUTES.ownerOf(prefix)?.errors === 'plain-json' ? { error: message } : { code, message };
  return Response.json(body, { status });
}

/** The request's headers as the primary gets them: this hop's own removed, with those its Connection header names. */
function forwardedHeaders(request: Request): Headers {
  const headers = new Headers(request.headers);
  const named = (headers.get('connection') ?? '').split(',').map((name) => name.trim().toLowerCase());
  for (const name of [...HOP_BY_HOP, ...named]) if (name) headers.delete(name);
  return headers;
}

export function forwardToHub(root: Hono, hubOrigin: string, prefixes: readonly string[]): void {
  const forward = async (c: Context, prefix: string): Promise<Response> => {
    const request = c.req.raw;
    const url = new URL(request.url);
    const headers = forwardedHeaders(request);
    let body: Buffer | undefined;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      try {
        body = await readBody(c);
      } catch (error) {
        if (error instanceof BodyReadError) return errorAnswer(prefix, error.status, error.message);
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
      return errorAnswer(prefix, 502, 'The cluster primary is not answering.', 502);
    }
  };
  for (const prefix of prefixes) {
    root.all(prefix, (c) => forward(c, prefix));
    root.all(`${prefix}/*`, (c) => forward(c, prefix));
  }
}
