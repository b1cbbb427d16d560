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
import { dispositionOf, mediaTypeOf } from './file-types.js';
import { isDownloadTarget } from './hosts.js';
import { DOWNLOAD_PATH, type DownloadLinks, type LinkRefusal } from './links.js';
import { throwIfBug } from '../translators/kit/failures.js';
import { resolveFile, unanswered, withToken, type CurrentFile, type V2Access } from './resolve.js';
import { entityTagOf, matchesAny } from './entity-tag.js';

/**
 * GET and HEAD /downloads/{link}: the recording file a link names. The link is read first (its
 * seal, its end where a lifetime is set): a refused one costs no v2 call, not even a token. Then v2
 * is asked where the file is now, with the link's key's app; a file v2 no longer lists is a
 * v1-shaped 404. HEAD and a conditional GET whose ETag matches (304) are answered from that list
 * alone, reading nothing of the file. A GET streams the file from v2 with the bearer token, as
 * today's service requires (docs/live-evidence.md), as it comes, with backpressure (pipeline), so
 * a file of any size holds a few chunks of memory; `Range` goes up and the answer's range and file
 * headers come back; a client that leaves ends the upstream read.
 */

type Env = { Bindings: { incoming?: IncomingMessage; outgoing?: ServerResponse } };

export interface DownloadServeDeps {
  links: DownloadLinks;
  hosts: readonly string[];
  /** The v2 service's origin (known once it listens, for the embedded sandbox). */
  v2Origin: () => string;
  /** The v2 base URL, where the file's recording is looked up. */
  v2BaseUrl: () => string;
  authorizer: V2Authorizer;
  /** The credentials a key's v2 app is reached with, without its v1 secret; undefined: none now. */
  credentialsOf: (apiKey: string) => Credentials | undefined | Promise<Credentials | undefined>;
  /** How long v2 may take to answer, and to send each next chunk. */
  timeoutMs: number;
  connections: number;
  /** Downloads of one key's links at once (DOWNLOAD_MAX_PER_KEY). */
  maxPerKey: number;
  /** The time links' ends are judged by (epoch ms). */
  now: () => number;
}

/** The file's headers passed on to the client as v2 sent them (the ETag is v1gate's own: see entity-tag.ts). */
const PASSED_HEADERS = ['content-type', 'content-length', 'content-range', 'content-disposition', 'accept-ranges', 'last-modified'];

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
  const v2: V2Access = { agent, authorizer: deps.authorizer, baseUrl: deps.v2BaseUrl };
  const streaming = new KeyedSlots(deps.maxPerKey);
  const app = new Hono<Env>();
  // Hono answers HEAD with the GET route: the handler tells them apart by the method.
  app.get(`${DOWNLOAD_PATH}:link`, async (c) => {
    const linked = deps.links.read(c.req.param('link'), deps.now());
    if ('kind' in linked) return refusalOf(c, linked);
    // A link is a bearer, and a download spends no v2 call budget: each key's downloads at once
    // are bounded, before any token is asked for.
    const release = streaming.take(linked.apiKey);
    if (!release) {
      const message = `Too many downloads of this key's recordings at once (at most ${deps.maxPerKey}): try again when one ends.`;
      return refuse(c, 429, message, { 'retry-after': '1' });
    }
    try {
      const credentials = await deps.credentialsOf(linked.apiKey);
      if (!credentials) return refuse(c, 403, "v1gate has no v2 app for this link's api_key any more.");
      return await withClientPresent(c, async (signal) => {
        const found = await resolveFile(v2, credentials, linked, signal);
        if (found.kind === 'gone') return refuse(c, 404, found.why);
        if (found.kind === 'unreachable') return refuse(c, 502, 'v2 did not answer for the recording.');
        if (found.kind === 'refused') return refuse(c, 502, `v2 refused the recording's file list (HTTP ${found.status}).`);
        const { file } = found;
        if (!isDownloadTarget(file.downloadUrl, deps.hosts, deps.v2Origin()))
          return refuse(c, 403, 'v2 named no v2 download host for this file.');
        const etag = entityTagOf(linked.fileId, file.size);
        if (matchesAny(c.req.header('if-none-match'), etag)) return c.body(null, 304, { etag });
        if (c.req.method === 'HEAD') return c.body(null, 200, headHeaders(linked.fileId, file, etag));
        return await serveFile(c, { credentials, file, fileId: linked.fileId, etag }, v2, deps, signal);
      });
    } finally {
      release();
    }
  });
  return { app, close: () => agent.close() };
}

/** `work` with a signal that aborts when the client leaves before the answer starts (after, the pipeline ends the read). */
async function withClientPresent(c: Context<Env>, work: (signal: AbortSignal) => Promise<Response>): Promise<Response> {
  const leaving = new AbortController();
  const outgoing = c.env?.outgoing;
  const left = () => leaving.abort();
  outgoing?.once('close', left);
  try {
    return await work(leaving.signal);
  } finally {
    outgoing?.off('close', left);
  }
}

/** What a HEAD answers: the file's headers as a GET of it would, from v2's list. */
function headHeaders(fileId: string, file: CurrentFile, etag: string): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': mediaTypeOf(file.fileType),
    'content-disposition': dispositionOf(fileId, file.fileType, file.fileExtension),
    'accept-ranges': 'bytes',
    etag,
  };
  if (file.size !== undefined) headers['content-length'] = String(file.size);
  return headers;
}

interface Found {
  credentials: Credentials;
  file: CurrentFile;
  fileId: string;
  etag: string;
}

/** The file fetched with its key's v2 app and relayed: until the last byte, or the client leaves. */
async function serveFile(c: Context<Env>, found: Found, v2: V2Access, deps: DownloadServeDeps, signal: AbortSignal): Promise<Response> {
  const range = c.req.header('range');
  let answer: Dispatcher.ResponseData;
  try {
    answer = await withToken(v2, found.credentials, (authorization) =>
      request(found.file.downloadUrl, {
        dispatcher: v2.agent,
        method: 'GET',
        headers: range === undefined ? { authorization } : { authorization, range },
        signal,
      }).catch(unanswered),
    );
  } catch (error) {
    throwIfBug(error);
    return refuse(c, 502, 'v2 did not answer for the recording file.');
  }
  return relay(c, answer, found, deps);
}

/** v2's answer to the client: the file (whole, a range, or 416) streamed; a redirect to a download host passed on; anything else said plainly. */
async function relay(c: Context<Env>, answer: Dispatcher.ResponseData, found: Found, deps: DownloadServeDeps): Promise<Response> {
  const status = answer.statusCode;
  if (status !== 200 && status !== 206 && status !== 416) {
    abandon(answer.body);
    const location = headerOf(answer, 'location');
    const target = location === undefined ? undefined : new URL(location, found.file.downloadUrl).href;
    // The service may send the file from a storage host, by a signed URL of its own: the client follows it.
    if (status >= 300 && status < 400 && target && isDownloadTarget(target, deps.hosts, deps.v2Origin())) {
      return c.body(null, status === 301 ? 302 : (status as 302), { location: target, etag: found.etag });
    }
    if (status === 404) return refuse(c, 404, 'v2 has no such recording file any more (deleted, or in the trash).');
    return refuse(c, 502, `v2 refused the recording file (HTTP ${status}).`);
  }
  const headers = fileHeaders(answer, found);
  const outgoing = c.env?.outgoing;
  if (!outgoing) return new Response(Readable.toWeb(answer.body) as ReadableStream, { status, headers });
  outgoing.writeHead(status, headers);
  // Backpressure both ways; a client that leaves (or v2 that fails) destroys the other side.
  await pipeline(answer.body, outgoing).catch(() => undefined);
  return RESPONSE_ALREADY_SENT;
}

/** v2's file headers, with what it left out filled from its list (type, name, length of a whole file), and v1gate's ETag. */
function fileHeaders(answer: Dispatcher.ResponseData, found: Found): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of PASSED_HEADERS) {
    const value = headerOf(answer, name);
    if (value !== undefined) headers[name] = value;
  }
  const { file, fileId } = found;
  headers['content-type'] ??= mediaTypeOf(file.fileType);
  headers['content-disposition'] ??= dispositionOf(fileId, file.fileType, file.fileExtension);
  // A whole file sent in chunks: its length is the size v2 lists, so a client can show progress and check it got it all.
  if (answer.statusCode === 200 && file.size !== undefined) headers['content-length'] ??= String(file.size);
  headers.etag = found.etag;
  return headers;
}

function headerOf(answer: Dispatcher.ResponseData, name: string): string | undefined {
  const value = answer.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
