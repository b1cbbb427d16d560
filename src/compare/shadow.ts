import type { Context, Next } from 'hono';
import { isLoopbackCaller } from '../shared/loopback.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import PQueue from 'p-queue';
import { v1ErrorResponse } from '../v1/errors.js';
import { Refusal, toV1Error } from '../translators/kit/failures.js';
import { readRawBody, type BodyLimits } from '../shared/request-body.js';
import { canonicalPath } from '../translators/kit/registry.js';
import type { OutboundGate } from '../upstream/client.js';
import { UpstreamUnavailable } from '../upstream/errors.js';
import { renderHtmlReport } from './html-report.js';
import { primaryHop, type PrimaryCall } from './forward.js';
import { parseAnswer } from './answers.js';
import { limitedOnOneSide } from './limited.js';
import { ShadowTally, type ShadowMismatch } from './shadow-tally.js';
import type { EndpointFacts } from './endpoint-facts.js';
import { forwardingGate } from './yield-to-forwarding.js';
import { readParams } from '../v1-facade/params.js';
import { REDACTED, callRedactor } from './secrets.js';
import { KnownSecrets } from '../shared/secrets.js';

export type { ShadowMismatch } from './shadow-tally.js';

/**
 * Shadow mode (Scientist's method): v1gate stands in front of the real v1. Every call is forwarded
 * to the primary and the primary's answer streamed back unchanged — status, content type, length
 * and bytes — so the client sees exactly v1. Read-only calls are also answered by v1gate's own
 * translation (sampled) and the two answers compared field by field. Nothing of the comparison
 * happens on the client's path: the primary's bytes are only kept (teed) for a sampled call, and
 * parsing, v1gate's own call and the diff start after the client's answer has left, at bounded
 * concurrency, from a bounded queue that drops rather than grows. Writes go to the primary only.
 */
export interface ShadowOptions {
  /** The real v1, e.g. `https://api.example.com` (the client's `/v1/...` path is appended). */
  primaryUrl: string;
  /** Share of read-only calls compared, 0 to 1. */
  sample: number;
  /** The endpoints v1gate serves: which are reads, where their fields come from, what they cost. */
  facts: EndpointFacts;
  /** v1gate's own v1 app: answers the same request through the v2 translation. */
  candidate(request: Request): Promise<Response>;
  body: BodyLimits;
  timeoutMs: number;
  maxConcurrent?: number;
  maxQueued?: number;
  /** Examples kept per endpoint and field. */
  examples?: number;
  random?: () => number;
  /** The configured secrets: redacted by value from the report, with each call's api_secret and the tokens its answers carry. */
  secrets?: KnownSecrets;
  /**
   * Who may read the mismatch report (`GET /shadow/report`, `/shadow/report.json`): its examples
   * are real answers. Default: callers on this machine only.
   */
  reportAllowed?: (c: Context) => boolean;
}

export interface ShadowStats {
  forwarded: number;
  compared: number;
  /** Compared calls with at least one real (not noise) difference. */
  mismatchedCalls: number;
  /** Reads not compared because the queue was full. */
  dropped: number;
  /** Reads not compared because one side alone refused them for its rate limits (limited.ts): v1gate's own calls spend its keys' v1 and v2 limits. */
  limited: number;
  /** Comparisons that failed (v1gate's own answer could not be made). */
  errors: number;
  /** Answers cut short mid-stream: the primary failed after its headers, or the client left. */
  interrupted: number;
  mismatches: ShadowMismatch[];
}

type Bindings = { incoming?: IncomingMessage; outgoing?: ServerResponse };

const FORWARDED_HEADERS = ['content-type', 'user-agent', 'accept', 'accept-language'] as const;
const V1_PATH = /^\/v1\//i;
const REPORT_PATHS = new Set(['/shadow/report', '/shadow/report.json']);
const NO_STORE = { 'cache-control': 'no-store' };

/**
 * The v2 gate of shadow mode's v2 client, which only the comparisons (and the signer's read) use:
 * reads go on to `limits`; any other call is refused before it is sent. A comparison replays only
 * calls of endpoints that declare reads alone, and this makes sure of it: a declaration that were
 * wrong would fail the comparison, never write.
 */
export function readOnlyGate(limits: OutboundGate): OutboundGate {
  return {
    schedule(apiKey, method, path, task, options) {
      if (method !== 'GET') {
        return Promise.reject(new UpstreamUnavailable('refused', `Shadow mode sends no v2 call but a GET, not ${method}.`, false));
      }
      return limits.schedule(apiKey, method, path, task, options);
    },
    penalize: (apiKey, method, path, retryAfterMs) => limits.penalize(apiKey, method, path, retryAfterMs),
  };
}

export function createShadow(options: ShadowOptions) {
  const hop = primaryHop({ primaryUrl: options.primaryUrl, timeoutMs: options.timeoutMs });
  const queue = new PQueue({ concurrency: options.maxConcurrent ?? 2 });
  const gate = forwardingGate();
  // A queue of 100 is half a second behind at 200 compared calls/s: past it a sample is dropped (counted), not kept waiting.
  const maxQueued = options.maxQueued ?? 100;
  const random = options.random ?? Math.random;
  const tally = new ShadowTally(options.facts, options.examples ?? 3);
  const counts = { forwarded: 0, compared: 0, mismatchedCalls: 0, dropped: 0, limited: 0, errors: 0, interrupted: 0 };
  const reportAllowed = options.reportAllowed ?? isLoopbackCaller;
  const primary = new URL(options.primaryUrl);
  const primaryName = primary.origin + primary.pathname.replace(/\/+$/, ''); // no user info in a report
  const secrets = options.secrets ?? new KnownSecrets();

  async function compare(endpoint: string, url: string, call: PrimaryCall, bytes: Buffer, contentType: string | undefined): Promise<void> {
    try {
      await gate.quiet();
      const primaryAnswer = parseAnswer(bytes.toString('utf8'), contentType);
      await gate.quiet();
      const request = new Request(url, {
        method: call.method,
        headers: call.headers,
        body: call.body.length ? new Uint8Array(call.body) : undefined,
      });
      const response = await options.candidate(request);
      const text = await response.text();
      await gate.quiet();
      const candidate = parseAnswer(text, response.headers.get('content-type') ?? undefined);
      if (limitedOnOneSide(primaryAnswer, candidate)) {
        counts.limited++;
        tally.notCompared(endpoint, 'limited');
        return;
      }
      counts.compared++;
      const redactor = callRedactor(secrets.redactor(REDACTED).with(await apiSecretsOf(call)), primaryAnswer.value, candidate.value);
      const v2Calls = Number(response.headers.get('x-v2-calls') ?? Number.NaN);
      if (tally.compared(endpoint, primaryAnswer, candidate, redactor, Number.isInteger(v2Calls) ? v2Calls : undefined))
        counts.mismatchedCalls++;
    } catch {
      counts.errors++;
      tally.notCompared(endpoint, 'failed');
    }
  }

  /** Queues a comparison; its steps wait for turns with no forward in flight (compare above). */
  function enqueue(endpoint: string, url: string, call: PrimaryCall, bytes: Buffer, contentType: string | undefined): void {
    if (queue.size >= maxQueued) {
      counts.dropped++;
      tally.notCompared(endpoint, 'dropped');
      return;
    }
    void queue.add(() => compare(endpoint, url, call, bytes, contentType));
  }

  async function handle(c: Context<{ Bindings: Bindings }>, next: Next): Promise<Response | void> {
    const path = c.req.path;
    if (!V1_PATH.test(path)) return REPORT_PATHS.has(path) && c.req.method === 'GET' ? report(c, path) : next();
    gate.started();
    try {
      return await forward(c, path);
    } finally {
      gate.ended();
    }
  }

  async function forward(c: Context<{ Bindings: Bindings }>, path: string): Promise<Response> {
    const incoming = c.env?.incoming;
    const outgoing = c.env?.outgoing;
    let body: Buffer;
    try {
      body = incoming ? await readRawBody(incoming, options.body) : Buffer.from(await c.req.arrayBuffer());
    } catch (error) {
      return v1ErrorResponse(
        toV1Error(new Refusal('unreadable-body', error instanceof Error ? error.message : 'The request body could not be read.')),
      );
    }
    const method = c.req.method;
    // The Node request's own target (already normalised by the server) and header object: no
    // URL or Headers built per call.
    let pathAndQuery: string;
    const headers: Record<string, string> = {};
    if (incoming?.url) {
      pathAndQuery = incoming.url;
      for (const name of FORWARDED_HEADERS) {
        const value = incoming.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
    } else {
      const url = c.req.url;
      pathAndQuery = url.slice(url.indexOf('/', url.indexOf('//') + 2));
      for (const name of FORWARDED_HEADERS) {
        const value = c.req.header(name);
        if (value !== undefined) headers[name] = value;
      }
    }
    const call: PrimaryCall = { method, pathAndQuery, headers, body };
    // Decided before forwarding, so only a call that will be compared keeps the primary's bytes.
    const endpoint = method === 'POST' && options.sample > 0 && random() < options.sample ? canonicalPath(path) : undefined;
    const read = endpoint !== undefined && options.facts.isRead(endpoint);
    if (endpoint !== undefined && !read) tally.notCompared(endpoint, 'writes');
    const keep = read && queue.size < maxQueued;

    if (incoming && outgoing) {
      const outcome = await hop.stream(call, outgoing, keep);
      if (outcome.kind === 'unreachable') return unavailable();
      if (outcome.kind !== 'sent') {
        counts.interrupted++;
        return RESPONSE_ALREADY_SENT;
      }
      counts.forwarded++;
      if (keep && outcome.status === 200 && outcome.bytes) enqueue(endpoint, c.req.url, call, outcome.bytes, outcome.contentType);
      else if (read && !keep && outcome.status === 200) {
        counts.dropped++; // the queue was full
        tally.notCompared(endpoint, 'dropped');
      }
      return RESPONSE_ALREADY_SENT;
    }
    // In process (no Node response to stream to): the answer is buffered.
    let answer: Awaited<ReturnType<typeof hop.buffered>>;
    try {
      answer = await hop.buffered(call);
    } catch {
      return unavailable();
    }
    counts.forwarded++;
    if (keep && answer.status === 200) enqueue(endpoint, c.req.url, call, answer.bytes, answer.contentType);
    return new Response(new Uint8Array(answer.bytes), {
      status: answer.status,
      headers: answer.contentType ? { 'content-type': answer.contentType } : {},
    });
  }

  /** The mismatch report, as `npm run compare` renders one: HTML, or its JSON. */
  function report(c: Context, path: string): Response {
    if (!reportAllowed(c)) return c.json({ error: 'the shadow report answers callers allowed to read the status page' }, 403);
    const body = secrets.redactor(REDACTED).redact(tally.report(primaryName));
    return path.endsWith('.json') ? c.json(body, 200, NO_STORE) : c.html(renderHtmlReport(body, 'v1gate shadow report'), 200, NO_STORE);
  }

  return {
    handle,
    stats(): ShadowStats {
      return { ...counts, mismatches: tally.mismatches() };
    },
    /** Resolves when every queued comparison is done (tests, shutdown). */
    idle: () => queue.onIdle(),
    /** Closes the pooled connections to the primary. */
    close: () => hop.close(),
  };
}

/** The api_secret values a forwarded call carried (query and form, as the facade reads them). */
async function apiSecretsOf(call: PrimaryCall): Promise<string[]> {
  const at = call.pathAndQuery.indexOf('?');
  try {
    const params = await readParams(at < 0 ? '' : call.pathAndQuery.slice(at + 1), call.body, call.headers['content-type']);
    const secret = params.api_secret;
    return typeof secret === 'string' ? [secret] : Array.isArray(secret) ? secret : [];
  } catch {
    return []; // a body the facade cannot read either: v1gate's answer is an error that carries no secret
  }
}

function unavailable(): Response {
  return v1ErrorResponse(toV1Error(new Refusal('primary-unavailable')));
}
