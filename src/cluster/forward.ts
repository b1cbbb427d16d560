import type { Hono } from 'hono';

/**
 * A worker forwards what exists once per cluster — the embedded sandbox (/v2, /sandbox) and the
 * webhook service that owns the file journal (/webhooks) — to the primary's loopback server, so
 * the public port answers every path a single process answers.
 */

/** Headers that describe one hop's connection, not the request. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'host', 'content-length'];

export function forwardToHub(root: Hono, hubOrigin: string, prefixes: readonly string[]): void {
  const forward = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const headers = new Headers(request.headers);
    for (const name of HOP_BY_HOP) headers.delete(name);
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    try {
      const answer = await fetch(`${hubOrigin}${url.pathname}${url.search}`, {
        method: request.method,
        headers,
        ...(hasBody ? { body: await request.arrayBuffer() } : {}),
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
    root.all(prefix, (c) => forward(c.req.raw));
    root.all(`${prefix}/*`, (c) => forward(c.req.raw));
  }
}
