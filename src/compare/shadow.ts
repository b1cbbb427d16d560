import type { Context, Next } from 'hono';
import { isLoopbackCaller } from '../shared/loopback.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import PQueue from 'p-queue';
import { v1ErrorAnswer } from '../translators/kit/error-answer.js';
import { Refusal } from '../translators/kit/failures.js';
import { readBody, type BodyLimits } from '../http/request-body.js';
import { canonicalPath } from '../translators/kit/registry.js';
import type { OutboundGate } from '../upstream/client.js';
import { UpstreamUnavailable } from '../upstream/errors.js';
import { renderHtmlReport } from './html-report.js';
import { primaryHop, type PrimaryCall, type PrimaryHop } from './forward.js';
import type { Answer } from './answers.js';
import { AnswerParser } from './parse-off-loop.js';
import { limitedOnOneSide } from './limited.js';
import { ShadowTally, type ShadowMismatch } from './shadow-tally.js';
import type { EndpointFacts } from './endpoint-facts.js';
import { forwardingGate, type ForwardingGate } from './yield-to-forwarding.js';
import { readParams } from '../v1-steps/params.js';
import { refusalOfUnread } from '../v1-steps/unread.js';
import { REDACTED, callRedactor } from './secrets.js';
import { KnownSecrets } from '../shared/secrets.js';
import { prefixOf, ROUTES } from '../shared/route-owners.js';
import type { Cutover, EndpointCutover } from './cutover.js';
import { describeCutover } from './cutover-words.js';

export type { ShadowMismatch } from './shadow-tally.js';

/**
 * Shadow mode (Scientist's method): v1gate stands in front of the real v1. Every call is forwarded
 * to the primary and the primary's answer streamed back unchanged — status, content type, length
 * and bytes — so the client sees exactly v1. Read-only calls are also answered by v1gate's own
 * translation (sampled) and the two answers compared field by field. Nothing of the comparison
 * happens on the client's path: the primary's bytes are only kept (teed) for a sampled call, up to
 * `maxComparedBytes` (a larger answer is not compared, and counted so), and parsing, v1gate's own
 * call and the diff start after the client's answer has left, at bounded concurrency, from a
 * bounded queue that drops rather than grows. Answers are parsed on a thread of their own
 * (parse-off-loop.ts), so a large one never holds the event loop. Writes go to the primary only.
 *
 * The cut-over (cutover.ts) moves endpoints to v1gate one by one: a read promoted after enough
 * matching calls is answered by v1gate itself (a sample still compared with the primary, in the
 * background); a write named in SHADOW_SERVE_WRITES is answered by v1gate and never sent to the
 * primary.
 */
type Bindings = { incoming?: IncomingMessage; outgoing?: ServerResponse };

export interface ShadowOptions {
  /** The real v1, e.g. `https://api.example.com` (the client's `/v1/...` path is appended). */
  primaryUrl: string;
  /** Share of read-only calls compared, 0 to 1. */
  sample: number;
  /** Share of a promoted read's calls also sent to the primary and compared, 0 to 1. */
  promotedSample: number;
  /** The endpoints v1gate serves: which are reads, where their fields come from, what they cost. */
  facts: EndpointFacts;
  /** v1gate's own v1 app, whose v2 client only reads: comparisons, and the promoted reads it answers. */
  candidate(request: Request, env?: Bindings): Response | Promise<Response>;
  /** A v1 app that may write: the writes v1gate answers itself (SHADOW_SERVE_WRITES). */
  writer?: ((request: Request, env?: Bindings) => Response | Promise<Response>) | undefined;
  cutover: Cutover;
  body: BodyLimits;
  timeoutMs: number;
  maxConcurrent?: number;
  maxQueued?: number;
  /** The largest answer compared (SHADOW_MAX_COMPARED_BYTES), the primary's and v1gate's alike. */
  maxComparedBytes: number;
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
  /** Reads not compared because an answer was larger than SHADOW_MAX_COMPARED_BYTES. */
  tooLarge: number;
  /** Calls v1gate answered itself: promoted reads and the writes it serves (the primary was not called, but for a sample). */
  served?: number;
  mismatches: ShadowMismatch[];
  /** Each endpoint's cut-over state, and the compared calls in a row that promote a read (0: never automatically). */
  cutover?: { promoteAfter: number; endpoints: EndpointCutover[] };
}

type ShadowContext = Context<{ Bindings: Bindings }>;

const FORWARDED_HEADERS = ['content-type', 'user-agent', 'accept', 'accept-language'] as const;
/** The mismatch report, under shadow mode's prefix in the route table. */
const REPORT_PATHS = new Set([`${prefixOf('shadowReport')}/report`, `${prefixOf('shadowReport')}/report.json`]);
const NO_STORE = { 'cache-control': 'no-store' };

/**
 * The v2 gate of shadow mode's v2 client, which only the comparisons (and the signer's read) use:
 * reads go on to `limits`; any other call is refused before it is sent. A comparison replays only
 * calls of endpoints that declare reads alone, and this makes sure of it: a declaration that were
 * wrong would fail the comparison, never write.
 */
export function readOnlyGate(limits: OutboundGate): OutboundGate {
  return {
    schedule(credentials, target, task, options) {
      const { method } = target.route;
      if (method !== 'GET') {
        return Promise.reject(new UpstreamUnavailable('refused', `Shadow mode sends no v2 call but a GET, not ${method}.`, false));
      }
      return limits.schedule(credentials, target, task, options);
    },
    penalize: (credentials, target, retryAfterMs) => limits.penalize(credentials, target, retryAfterMs),
    remaining: (credentials, target, remaining) => limits.remaining?.(credentials, target, remaining),
  };
}

/** One comparison: the call as the primary got it, and the primary's answer. */
interface Sampled {
  endpoint: string;
  url: string;
  call: PrimaryCall;
  primary: { bytes: Buffer; contentType: string | undefined };
  /** v1gate's answer when it already made it (a promoted read it answered): not asked again. */
  candidate?: { text: string; contentType: string | undefined; v2Calls: number | undefined };
}

export function createShadow(options: ShadowOptions) {
  return new ShadowMode(options);
}

export class ShadowMode {
  private readonly hop: PrimaryHop;
  private readonly queue: PQueue;
  private readonly gate: ForwardingGate = forwardingGate();
  // A queue of 100 is half a second behind at 200 compared calls/s: past it a sample is dropped (counted), not kept waiting.
  private readonly maxQueued: number;
  private readonly random: () => number;
  private readonly tally: ShadowTally;
  private readonly counts = {
    forwarded: 0,
    compared: 0,
    mismatchedCalls: 0,
    dropped: 0,
    limited: 0,
    errors: 0,
    interrupted: 0,
    tooLarge: 0,
    served: 0,
  };
  private readonly maxComparedBytes: number;
  private readonly parser = new AnswerParser();
  private readonly reportAllowed: (c: Context) => boolean;
  private readonly primaryName: string;
  private readonly secrets: KnownSecrets;

  constructor(private readonly options: ShadowOptions) {
    this.hop = primaryHop({ primaryUrl: options.primaryUrl, timeoutMs: options.timeoutMs });
    this.queue = new PQueue({ concurrency: options.maxConcurrent ?? 2 });
    this.maxQueued = options.maxQueued ?? 100;
    this.maxComparedBytes = options.maxComparedBytes;
    this.random = options.random ?? Math.random;
    this.tally = new ShadowTally(options.facts, options.examples ?? 3);
    this.reportAllowed = options.reportAllowed ?? isLoopbackCaller;
    const primary = new URL(options.primaryUrl);
    this.primaryName = primary.origin + primary.pathname.replace(/\/+$/, ''); // no user info in a report
    this.secrets = options.secrets ?? new KnownSecrets();
  }

  readonly handle = async (c: ShadowContext, next: Next): Promise<Response | void> => {
    const path = c.req.path;
    if (!ROUTES.namesCallOf('v1', path)) return REPORT_PATHS.has(path) && c.req.method === 'GET' ? this.report(c, path) : next();
    const endpoint = canonicalPath(path);
    if (c.req.method === 'POST' && this.options.cutover.route(endpoint) === 'serve') return this.serve(c, endpoint);
    this.gate.started();
    try {
      return await this.forward(c, endpoint);
    } finally {
      this.gate.ended();
    }
  };

  stats(): ShadowStats {
    const { cutover } = this.options;
    return {
      ...this.counts,
      mismatches: this.tally.mismatches(),
      cutover: { promoteAfter: cutover.promoteAfter, endpoints: cutover.endpoints() },
    };
  }

  /** Primary calls of promoted reads' samples, in flight before their comparison is queued. */
  private readonly fetching = new Set<Promise<void>>();

  /** Resolves when every sample's primary call and every queued comparison is done (tests, shutdown). */
  idle = async (): Promise<void> => {
    while (this.fetching.size > 0) await Promise.all(this.fetching);
    await this.queue.onIdle();
  };

  /** Takes up the cut-over states kept before a restart (the gateway awaits it before it listens). */
  restore = (): Promise<void> => this.options.cutover.restore();

  /** Closes the pooled connections to the primary and the parser's thread, and writes the cut-over states. */
  async close(): Promise<void> {
    await this.hop.close();
    await this.parser.close();
    await this.options.cutover.close();
  }

  /**
   * v1gate answers the call itself. A write it serves, and a promoted read's call outside the
   * sample, go straight to the v1 app; a sampled read's body is read first, so the same call can
   * also go to the primary, in the background, and be compared.
   */
  private async serve(c: ShadowContext, endpoint: string): Promise<Response> {
    this.counts.served++;
    const write = this.options.cutover.stateOf(endpoint) === 'serving';
    const app = write ? this.options.writer : this.options.candidate;
    if (!app) return this.forward(c, endpoint); // no writer wired: the primary answers, as before the cut-over
    if (write || !(this.random() < this.options.promotedSample)) return app(c.req.raw, c.env);
    const call = await this.primaryCallOf(c);
    if (call instanceof Response) return call;
    const answer = await this.options.candidate(new Request(c.req.url, requestInit(call)));
    const text = await answer.text();
    const contentType = answer.headers.get('content-type') ?? undefined;
    const fetching = this.compareWithPrimary(endpoint, c.req.url, call, { text, contentType, v2Calls: v2CallsOf(answer) }).finally(() =>
      this.fetching.delete(fetching),
    );
    this.fetching.add(fetching);
    return new Response(text, { status: answer.status, headers: answer.headers });
  }

  /** A promoted read's sample: the primary's answer, fetched after v1gate's went out, then compared. */
  private async compareWithPrimary(endpoint: string, url: string, call: PrimaryCall, candidate: Sampled['candidate']): Promise<void> {
    try {
      const primary = await this.hop.buffered(call);
      if (primary.status !== 200) return;
      this.enqueue({ endpoint, url, call, primary: { bytes: primary.bytes, contentType: primary.contentType }, candidate });
    } catch {
      this.counts.errors++;
      this.tally.notCompared(endpoint, 'failed');
    }
  }

  private async forward(c: ShadowContext, endpoint: string): Promise<Response> {
    const call = await this.primaryCallOf(c);
    if (call instanceof Response) return call;
    // Decided before forwarding, so only a call that will be compared keeps the primary's bytes.
    const sampled = call.method === 'POST' && this.options.sample > 0 && this.random() < this.options.sample;
    const read = sampled && this.options.facts.isRead(endpoint);
    if (sampled && !read) this.tally.notCompared(endpoint, 'writes');
    const keep = read && this.queue.size < this.maxQueued;
    const compare = (status: number, bytes: Buffer | undefined, contentType: string | undefined) => {
      if (keep && status === 200 && bytes) this.enqueue({ endpoint, url: c.req.url, call, primary: { bytes, contentType } });
      else if (read && !keep && status === 200) this.dropped(endpoint); // the queue was full
    };
    const { incoming, outgoing } = c.env ?? {};
    if (incoming && outgoing) {
      const outcome = await this.hop.stream(call, outgoing, keep ? this.maxComparedBytes : 0);
      if (outcome.kind === 'unreachable') return unavailable();
      if (outcome.kind !== 'sent') {
        this.counts.interrupted++;
        return RESPONSE_ALREADY_SENT;
      }
      this.counts.forwarded++;
      if (keep && outcome.status === 200 && outcome.tooLarge) this.tooLarge(endpoint);
      else compare(outcome.status, outcome.bytes, outcome.contentType);
      return RESPONSE_ALREADY_SENT;
    }
    // In process (no Node response to stream to): the answer is buffered.
    let answer: Awaited<ReturnType<PrimaryHop['buffered']>>;
    try {
      answer = await this.hop.buffered(call);
    } catch {
      return unavailable();
    }
    this.counts.forwarded++;
    compare(answer.status, answer.bytes, answer.contentType);
    return new Response(new Uint8Array(answer.bytes), {
      status: answer.status,
      headers: answer.contentType ? { 'content-type': answer.contentType } : {},
    });
  }

  /** The call as the primary gets it: the body as read, the path and query as sent, the headers a v1 answer depends on. */
  private async primaryCallOf(c: ShadowContext): Promise<PrimaryCall | Response> {
    const incoming = c.env?.incoming;
    let body: Buffer;
    try {
      body = await readBody(c, this.options.body);
    } catch (error) {
      // The rest of a refused body cannot be read as the next request: the connection closes.
      return v1ErrorAnswer(refusalOfUnread(error), { headers: { connection: 'close' } });
    }
    // The Node request's own target (already normalised by the server) and header object: no
    // URL or Headers built per call.
    const headers: Record<string, string> = {};
    if (incoming?.url) {
      for (const name of FORWARDED_HEADERS) {
        const value = incoming.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      return { method: c.req.method, pathAndQuery: incoming.url, headers, body };
    }
    const url = c.req.url;
    for (const name of FORWARDED_HEADERS) {
      const value = c.req.header(name);
      if (value !== undefined) headers[name] = value;
    }
    return { method: c.req.method, pathAndQuery: url.slice(url.indexOf('/', url.indexOf('//') + 2)), headers, body };
  }

  private dropped(endpoint: string): void {
    this.counts.dropped++;
    this.tally.notCompared(endpoint, 'dropped');
  }

  private tooLarge(endpoint: string): void {
    this.counts.tooLarge++;
    this.tally.notCompared(endpoint, 'too-large');
  }

  /** Queues a comparison; its steps wait for turns with no forward in flight (compare below). */
  private enqueue(sampled: Sampled): void {
    if (sampled.primary.bytes.length > this.maxComparedBytes) return this.tooLarge(sampled.endpoint);
    if (this.queue.size >= this.maxQueued) return this.dropped(sampled.endpoint);
    void this.queue.add(() => this.compare(sampled));
  }

  private async compare(sampled: Sampled): Promise<void> {
    const { endpoint, call } = sampled;
    try {
      await this.gate.quiet();
      const primaryAnswer = await this.parser.parse(sampled.primary.bytes.toString('utf8'), sampled.primary.contentType);
      await this.gate.quiet();
      const candidate = sampled.candidate ?? (await this.candidateAnswer(sampled));
      if (Buffer.byteLength(candidate.text) > this.maxComparedBytes) return this.tooLarge(endpoint);
      await this.gate.quiet();
      const candidateAnswer = await this.parser.parse(candidate.text, candidate.contentType);
      if (limitedOnOneSide(primaryAnswer, candidateAnswer)) {
        this.counts.limited++;
        this.tally.notCompared(endpoint, 'limited');
        return;
      }
      await this.record(endpoint, call, primaryAnswer, candidateAnswer, candidate.v2Calls);
    } catch {
      this.counts.errors++;
      this.tally.notCompared(endpoint, 'failed');
    }
  }

  private async candidateAnswer(sampled: Sampled): Promise<NonNullable<Sampled['candidate']>> {
    const response = await this.options.candidate(new Request(sampled.url, requestInit(sampled.call)));
    return { text: await response.text(), contentType: response.headers.get('content-type') ?? undefined, v2Calls: v2CallsOf(response) };
  }

  /** One compared call: counted, its examples kept redacted, and told to the cut-over. */
  private async record(
    endpoint: string,
    call: PrimaryCall,
    primary: Answer,
    candidate: Answer,
    v2Calls: number | undefined,
  ): Promise<void> {
    this.counts.compared++;
    const redactor = callRedactor(this.secrets.redactor(REDACTED).with(await apiSecretsOf(call)), primary.value, candidate.value);
    const difference = this.tally.compared(endpoint, primary, candidate, redactor, v2Calls);
    if (difference === undefined) this.options.cutover.matched(endpoint);
    else {
      this.counts.mismatchedCalls++;
      this.options.cutover.differed(endpoint, difference);
    }
  }

  /** The mismatch report, as `npm run compare` renders one (HTML, or its JSON), with each endpoint's cut-over state. */
  private report(c: Context, path: string): Response {
    if (!this.reportAllowed(c)) return c.json({ error: 'the shadow report answers callers allowed to read the status page' }, 403);
    const cutover = this.options.cutover;
    const states = new Map(cutover.endpoints().map((e) => [e.endpoint, e]));
    const compared = this.tally.report(this.primaryName);
    const body = this.secrets.redactor(REDACTED).redact({
      ...compared,
      cutover: { promote_after: cutover.promoteAfter, promoted_sample: this.options.promotedSample, endpoints: [...states.values()] },
    });
    if (path.endsWith('.json')) return c.json(body, 200, NO_STORE);
    const column = { head: 'Cut-over', cell: (endpoint: string) => describeCutover(states.get(endpoint), cutover.promoteAfter) };
    return c.html(renderHtmlReport(body, 'v1gate shadow report', [column]), 200, NO_STORE);
  }
}

function requestInit(call: PrimaryCall): RequestInit {
  return { method: call.method, headers: call.headers, body: call.body.length ? new Uint8Array(call.body) : undefined };
}

function v2CallsOf(response: Response): number | undefined {
  const count = Number(response.headers.get('x-v2-calls') ?? Number.NaN);
  return Number.isInteger(count) ? count : undefined;
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
  return v1ErrorAnswer(new Refusal('primary-unavailable'));
}
