import type { Context, Next } from 'hono';
import type { IncomingMessage } from 'node:http';
import PQueue from 'p-queue';
import { request } from 'undici';
import { V1Code } from '../../mappings/errors.js';
import { readRawBody, type BodyLimits } from '../v1-facade/raw-body.js';
import { diffAnswers } from './diff.js';
import { builtInNoise, noiseReason } from './noise.js';
import { parseV1Answer } from './replay.js';
import { canonicalPath } from '../translators/registry.js';

/**
 * Shadow mode (Scientist's method): v1gate stands in front of the real v1. Every call is forwarded
 * to the primary and the primary's answer returned unchanged — status, content type and bytes — so
 * the client sees exactly v1. Read-only calls are also answered by v1gate's own translation in the
 * background (sampled, bounded concurrency, a bounded queue that drops rather than grows) and the
 * two answers compared field by field; the primary's answer is never delayed by it. Writes go to
 * the primary only.
 */
export interface ShadowOptions {
  /** The real v1, e.g. `https://api.example.com` (the client's `/v1/...` path is appended). */
  primaryUrl: string;
  /** Share of read-only calls compared, 0 to 1. */
  sample: number;
  isRead(path: string): boolean;
  why(path: string, field: string): string;
  /** v1gate's own v1 app: answers the same request through the v2 translation. */
  candidate(request: Request): Promise<Response>;
  body: BodyLimits;
  timeoutMs: number;
  maxConcurrent?: number;
  maxQueued?: number;
  /** Examples kept per endpoint and field. */
  examples?: number;
  random?: () => number;
}

export interface ShadowMismatch {
  endpoint: string;
  field: string;
  kind: string;
  count: number;
  why: string;
  examples: { primary: unknown; v1gate: unknown }[];
}

export interface ShadowStats {
  forwarded: number;
  compared: number;
  /** Compared calls with at least one real (not noise) difference. */
  mismatchedCalls: number;
  /** Reads not compared because the queue was full. */
  dropped: number;
  /** Comparisons that failed (v1gate's own answer could not be made). */
  errors: number;
  mismatches: ShadowMismatch[];
}

type Bindings = { incoming?: IncomingMessage };

const FORWARDED_HEADERS = ['content-type', 'user-agent', 'accept', 'accept-language'];
/** Endpoints × fields kept; past it, new fields are counted only in `mismatchedCalls`. */
const MAX_MISMATCH_ROWS = 2_000;

export function createShadow(options: ShadowOptions) {
  const primary = options.primaryUrl.replace(/\/+$/, '');
  const queue = new PQueue({ concurrency: options.maxConcurrent ?? 4 });
  const maxQueued = options.maxQueued ?? 1_000;
  const keep = options.examples ?? 3;
  const random = options.random ?? Math.random;
  const rules = builtInNoise();
  const rows = new Map<string, ShadowMismatch>();
  const counts = { forwarded: 0, compared: 0, mismatchedCalls: 0, dropped: 0, errors: 0 };

  async function compare(endpoint: string, url: string, method: string, headers: Headers, body: Buffer, primaryAnswer: unknown): Promise<void> {
    try {
      const response = await options.candidate(new Request(url, { method, headers, body: body.length ? new Uint8Array(body) : undefined }));
      const candidate = parseAnswer(await response.text(), response.headers.get('content-type'));
      counts.compared++;
      let real = false;
      for (const difference of diffAnswers(primaryAnswer, candidate)) {
        if (noiseReason(difference, rules)) continue;
        real = true;
        const key = `${endpoint}\n${difference.field}\n${difference.kind}`;
        let row = rows.get(key);
        if (!row && rows.size < MAX_MISMATCH_ROWS) {
          row = { endpoint, field: difference.field, kind: difference.kind, count: 0, why: options.why(endpoint, difference.field), examples: [] };
          rows.set(key, row);
        }
        if (!row) continue;
        row.count++;
        if (row.examples.length < keep) row.examples.push({ primary: difference.a, v1gate: difference.b });
      }
      if (real) counts.mismatchedCalls++;
    } catch {
      counts.errors++;
    }
  }

  async function handle(c: Context<{ Bindings: Bindings }>, next: Next): Promise<Response | void> {
    if (!/^\/v1\//i.test(c.req.path)) return next();
    const incoming = c.env?.incoming;
    let body: Buffer;
    try {
      body = incoming ? await readRawBody(incoming, options.body) : Buffer.from(await c.req.arrayBuffer());
    } catch (error) {
      return v1Error(V1Code.invalidParameter, error instanceof Error ? error.message : 'The request body could not be read.');
    }
    const at = c.req.url.indexOf('/', c.req.url.indexOf('//') + 2);
    const pathAndQuery = c.req.url.slice(at);
    const headers: Record<string, string> = {};
    for (const name of FORWARDED_HEADERS) {
      const value = c.req.header(name);
      if (value !== undefined) headers[name] = value;
    }
    let status: number;
    let contentType: string | undefined;
    let bytes: Buffer;
    try {
      const response = await request(`${primary}${pathAndQuery}`, {
        method: c.req.method as 'POST',
        headers,
        body: body.length ? body : undefined,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
      status = response.statusCode;
      const type = response.headers['content-type'];
      contentType = Array.isArray(type) ? type[0] : type;
      bytes = Buffer.from(await response.body.arrayBuffer());
    } catch {
      return v1Error(V1Code.upstreamUnavailable, 'The v1 service (V1_PRIMARY_URL) could not be reached or did not answer in time.');
    }
    counts.forwarded++;
    const endpoint = canonicalPath(c.req.path);
    if (c.req.method === 'POST' && status === 200 && options.isRead(endpoint) && random() < options.sample) {
      if (queue.size >= maxQueued) counts.dropped++;
      else {
        const primaryAnswer = parseAnswer(bytes.toString('utf8'), contentType ?? null);
        void queue.add(() => compare(endpoint, c.req.url, c.req.method, new Headers(headers), body, primaryAnswer));
      }
    }
    return new Response(new Uint8Array(bytes), { status, headers: contentType ? { 'content-type': contentType } : {} });
  }

  return {
    handle,
    stats(): ShadowStats {
      return { ...counts, mismatches: [...rows.values()].sort((a, b) => b.count - a.count) };
    },
    /** Resolves when every queued comparison is done (tests, shutdown). */
    idle: () => queue.onIdle(),
  };
}

function parseAnswer(text: string, contentType: string | null): unknown {
  return parseV1Answer(text, contentType?.includes('xml') ? 'XML' : 'JSON');
}

function v1Error(code: number, message: string): Response {
  return Response.json({ error: { code, message } }, { status: 200 });
}
