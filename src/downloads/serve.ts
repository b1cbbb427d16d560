import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Agent, request, type Dispatcher } from 'undici';
import type { V2Authorizer } from '../upstream/auth/authorizer.js';
import { abandon } from '../shared/abandon.js';
import { KeyedSlots } from '../shared/keyed-slots.js';
import type { Credentials } from '../upstream/credentials.js';
import { isDownloadTarget } from './hosts.js';
import { DOWNLOAD_PATH, type DownloadGrant, type DownloadLinks, type LinkRefusal } from './links.js';

/**
 * GET /downloads/{link}: the recording file a link names, streamed from v2 with the bearer token of
 * the link's key's v2 app, as today's service requires (docs/live-evidence.md). The link is read
 * first (signature, expiry, a v2 download host): a refused one costs no v2 call, not even a token.
 * The file goes through as it comes, with backpressure (pipeline), so a file of any size holds a
 * few chunks of memory; `Range` goes up and the answer's range and file headers come back; a client
 * that leaves ends the upstream read.
 */

type Env = { Bindings: { incoming?: IncomingMessage; outgoing?: ServerResponse } };

export interface DownloadServeDeps {
  links: DownloadLinks;
  hosts: readonly string[];
  /** The v2 service's origin (known once it listens, for the embedded sandbox). */
  v2Origin: () => string;
  authorizer: V2Authorizer;
  /** The credentials a key's v2 app is reached with, without its v1 secret; undefined: none now. */
  credentialsOf: (apiKey: string) => Credentials | undefined | Promise<Credentials | undefined>;
  /** How long v2 may take to answer, and to send each next chunk. */
  timeoutMs: number;
  connections: number;
  /** Downloads of one key's links at once (DOWNLOAD_MAX_PER_KEY). */
  maxPerKey: number;
}

/** The file's headers passed on to the client as v2 sent them. */
const PASSED_HEADERS = ['content-type', 'content-length', 'content-range', 'content-disposition', 'accept-ranges', 'last-modified', 'etag'];

const refuse = (c: Context, status: ContentfulStatusCode, message: string, headers?: Record<string, string>) =>
  c.json({ error: { code: status, message } }, status, headers);

function refusalOf(c: Context, refusal: LinkRefusal): Response {
  if (refusal.kind === 'expired') {
    const at = new Date(refusal.atMs).toISOString();
    return refuse(c, 410, `This download link expired at ${at}: ask for the recording again for a new link.`);
  }
  return refuse(c, 403, 'This download link is not one v1gate made: it was altered, or sealed with another key.');
}

export function downloadRoutes(deps: DownloadServeDeps): { app: Hono<Env>; close(): Promise<void> } {
  const agent = new Agent({ connections: deps.connections, headersTimeout: deps.timeoutMs, bodyTimeout: deps.timeoutMs });
  const streaming = new KeyedSlots(deps.maxPerKey);
  const app = new Hono<Env>();
  app.get(`${DOWNLOAD_PATH}:link`, async (c) => {
    const grant = deps.links.read(c.req.param('link'), Date.now());
    if ('kind' in grant) return refusalOf(c, grant);
    if (!isDownloadTarget(grant.url, deps.hosts, deps.v2Origin())) return refuse(c, 403, 'This download link names no v2 download host.');
    // A link is a bearer until it expires, and a download spends no v2 call budget: each key's
    // downloads at once are bounded, before any token is asked for.
    const release = streaming.take(grant.apiKey);
    if (!release) {
      const message = `Too many downloads of this key's recordings at once (at most ${deps.maxPerKey}): try again when one ends.`;
      return refuse(c, 429, message, { 'retry-after': '1' });
    }
    try {
      return await serveFile(c, grant, agent, deps);
    } finally {
      release();
    }
  });
  return { app, close: () => agent.close() };
}

/** The file of a good link, fetched with its key's v2 app and relayed: until the last byte, or the client leaves. */
async function serveFile(c: Context<Env>, grant: DownloadGrant, agent: Agent, deps: DownloadServeDeps): Promise<Response> {
  const credentials = await deps.credentialsOf(grant.apiKey);
  if (!credentials) return refuse(c, 403, "v1gate has no v2 app for this link's api_key any more.");
  // A client that leaves before v2 answers ends the request; after, the pipeline ends it.
  const leaving = new AbortController();
  const outgoing = c.env?.outgoing;
  const left = () => leaving.abort();
  outgoing?.once('close', left);
  let answer: Dispatcher.ResponseData;
  try {
    answer = await fetchFile(agent, deps.authorizer, credentials, grant, c.req.header('range'), leaving.signal);
  } catch {
    return refuse(c, 502, 'v2 did not answer for the recording file.');
  } finally {
    outgoing?.off('close', left);
  }
  return relay(c, answer, grant, deps);
}

/** GET the file with the key's bearer token; a token v2 refuses that may be renewed (OAuth) is renewed once. */
async function fetchFile(
  agent: Agent,
  authorizer: V2Authorizer,
  credentials: Credentials,
  grant: DownloadGrant,
  range: string | undefined,
  signal: AbortSignal,
): Promise<Dispatcher.ResponseData> {
  for (let attempt = 1; ; attempt++) {
    const token = await authorizer.tokenFor(credentials);
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (range !== undefined) headers.range = range;
    const answer = await request(grant.url, { dispatcher: agent, method: 'GET', headers, signal });
    if (answer.statusCode !== 401 || attempt > 1 || !authorizer.renewable(credentials, token)) return answer;
    abandon(answer.body);
  }
}

/** v2's answer to the client: the file (whole, a range, or 416) streamed; a redirect to a download host passed on; anything else said plainly. */
async function relay(c: Context<Env>, answer: Dispatcher.ResponseData, grant: DownloadGrant, deps: DownloadServeDeps): Promise<Response> {
  const status = answer.statusCode;
  if (status !== 200 && status !== 206 && status !== 416) {
    abandon(answer.body);
    const location = headerOf(answer, 'location');
    const target = location === undefined ? undefined : new URL(location, grant.url).href;
    // The service may send the file from a storage host, by a signed URL of its own: the client follows it.
    if (status >= 300 && status < 400 && target && isDownloadTarget(target, deps.hosts, deps.v2Origin())) {
      return c.body(null, status === 301 ? 302 : (status as 302), { location: target });
    }
    if (status === 404) return refuse(c, 404, 'v2 has no such recording file any more (deleted, or in the trash).');
    return refuse(c, 502, `v2 refused the recording file (HTTP ${status}).`);
  }
  const headers: Record<string, string> = {};
  for (const name of PASSED_HEADERS) {
    const value = headerOf(answer, name);
    if (value !== undefined) headers[name] = value;
  }
  const outgoing = c.env?.outgoing;
  if (!outgoing) return new Response(Readable.toWeb(answer.body) as ReadableStream, { status, headers });
  outgoing.writeHead(status, headers);
  // Backpressure both ways; a client that leaves (or v2 that fails) destroys the other side.
  await pipeline(answer.body, outgoing).catch(() => undefined);
  return RESPONSE_ALREADY_SENT;
}

function headerOf(answer: Dispatcher.ResponseData, name: string): string | undefined {
  const value = answer.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
