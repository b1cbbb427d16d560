import type { Context } from 'hono';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { isoSeconds } from '../shared/iso-time.js';
import { Departure, EitherLeaving, type Leaving } from '../shared/leaving.js';
import type { OwnTime } from '../shared/own-time.js';
import type { CallTrace } from '../shared/trace-context.js';
import type { V2Method, V2Route, V2Target } from '../v2-contract/v2-route.js';
import { checkedV2Answer, type V2Answer } from '../translators/kit/v2-answers/table.js';
import type { CallMemo, RecordingFileRef, TranslatorContext, V2Api } from '../translators/kit/define.js';
import { opens } from '../translators/kit/scopes.js';
import type { Credentials, Query, V2CallObservation, V2Client, V2Request } from '../upstream/client.js';
import { CallWithdrawn, notSentAfter, unanswered, V2Error, type UpstreamUnavailable } from '../upstream/errors.js';
import type { PairProver } from '../upstream/pair-proof.js';
import type { KeyMemo } from './key-memo.js';

/**
 * What one v1 call hands its translator: the v2 API bound to the caller's pair and deadline, the
 * key memo bound to the caller's key, the clock and the fan-out check.
 */

/** What @hono/node-server hands each request: Node's own request and response (absent under `app.request`). */
export type Bindings = { incoming?: IncomingMessage; outgoing?: ServerResponse };

/** The fan-out pre-check (throws when `calls` v2 calls cannot be admitted within `waitMs` at the plan of the pair's v2 account). */
export type FanOutCheck = (credentials: Credentials, route: V2Route<'GET'>, calls: number, waitMs: number) => void;

/**
 * The V2Api of one v1 call: the caller's credentials and deadline on every call, and a count of
 * calls sent. A class, not an object of arrows: one is made per v1 call, and an object of eight
 * fresh closures cost ~20 µs per v1 call under tsx (`npm run dev`, esbuild keepNames).
 */
export class BoundV2 implements V2Api {
  constructor(
    private readonly line: CallLine,
    /** How this call's v2 requests wait for outbound tokens: the v1 call's deadline, or an undo's own budget and priority. */
    private readonly waiting: Pick<V2Request, 'deadlineMs' | 'priority' | 'leaving'>,
    /** The pair was accepted by v2 lately (the prover knows it): no need to wait for proof. */
    private verified: boolean,
  ) {}

  /**
   * Set once the call has its answer: a read of it not yet sent (waiting for the pair's proof or an
   * outbound token, the sibling of a read that failed) is withdrawn, for nothing would read its
   * answer. Writes are not: a write left unsent could leave a change half done.
   */
  private readonly over = new Departure();
  /** What this call's reads are withdrawn by: the client's leaving, or the call's answer (made on a first read). */
  private readsLeaving: Leaving | undefined;

  /** The call is answered: no read of it starts from now on. */
  answered(): void {
    this.over.leaveFor(() => new CallWithdrawn(ANSWERED_UNSENT));
  }

  /** Set by the first 401 of this v1 call: every later v2 call of it is refused without being sent. */
  private refused: V2Error | undefined;
  /** While the pair is unproven, the first v2 call goes alone; the others wait for its outcome. */
  private first: Promise<unknown> | undefined;
  /**
   * Set when that first call got no answer in time: the others, which waited the whole timeout for
   * it, are refused unsent, so a v2 service that hangs costs a v1 call one timeout, not one each.
   */
  private unanswered: UpstreamUnavailable | undefined;

  get<Name extends string>(target: V2Target<'GET', Name>, query?: Query): Promise<V2Answer<Name>> {
    return this.checked(target, this.call(target, query, undefined));
  }
  post<Name extends string>(target: V2Target<'POST', Name>, body: unknown, query?: Query): Promise<V2Answer<Name>> {
    return this.checked(target, this.call(target, query, body));
  }
  patch(target: V2Target<'PATCH'>, body: unknown): Promise<void> {
    return this.call<void>(target, undefined, body);
  }
  put(target: V2Target<'PUT'>, body?: unknown, query?: Query): Promise<void> {
    return this.call<void>(target, query, body);
  }
  delete(target: V2Target<'DELETE'>, query?: Query): Promise<void> {
    return this.call<void>(target, query, undefined);
  }
  upload<Name extends string>(target: V2Target<'POST', Name>, form: FormData): Promise<V2Answer<Name>> {
    return this.checked(target, this.send<unknown>(this.request(target, undefined, undefined, form)));
  }
  private call<T = unknown>(target: V2Target, query: Query | undefined, body: unknown): Promise<T> {
    return this.send<T>(this.request(target, query, body, undefined));
  }
  /**
   * The answer as the translator reads it, checked against its route's one schema: here, after
   * coalescing, so each waiter on a shared GET checks its own copy.
   */
  private checked<Name extends string>(target: V2Target<V2Method, Name>, pending: Promise<unknown>): Promise<V2Answer<Name>> {
    return pending.then((answer) => checkedV2Answer(target.route, answer));
  }
  /** Whether a request of this call has been made yet (its first one opens the call at the outbound limiter). */
  private opened = false;

  /** One object literal of one shape per call (a spread of the caller's object made a new one each time). */
  private request(target: V2Target, query: Query | undefined, body: unknown, form: FormData | undefined): V2Request {
    const { line, waiting } = this;
    const opensCall = !this.opened && waiting.priority === undefined;
    this.opened = true;
    return {
      target,
      query,
      body,
      form,
      deadlineMs: waiting.deadlineMs,
      priority: waiting.priority,
      opensCall,
      leaving:
        waiting.priority === undefined && target.route.reads
          ? (this.readsLeaving ??= new EitherLeaving(waiting.leaving, this.over))
          : waiting.leaving,
      onSend: line.onSend,
      onResult: line.onResult,
      requestId: line.requestId,
      trace: line.trace,
      ownTime: line.ownTime,
    };
  }

  /**
   * Credentials first: a pair not yet proven sends one v2 call, its proof (pair-proof.ts), and waits
   * for its answer before any other (a fan-out of 300 deletes with a wrong secret is one v2 call,
   * not 300), and the first 401 ends the v1 call. A proven pair (this call's first answer, or the
   * prover's) sends at once.
   */
  private send<T>(request: V2Request): Promise<T> {
    if (!request.target.route.reads) return this.written(this.sendNow<T>(request));
    return this.sendNow<T>(request);
  }

  /** A write drops the key's short-lived reads when sent and again when it ends (a read between may have seen the old state). */
  private written<T>(pending: Promise<T>): Promise<T> {
    this.line.onWrite();
    const done = () => this.line.onWrite();
    pending.then(done, done);
    return pending;
  }

  private sendNow<T>(request: V2Request): Promise<T> {
    // A read whose call was answered (or whose client left) while it waited for the pair's proof.
    if (request.leaving === this.readsLeaving && request.leaving?.left) return Promise.reject(request.leaving.signal.reason);
    if (this.refused) return Promise.reject(this.refused);
    if (this.unanswered) return Promise.reject(this.unanswered);
    if (this.verified) return this.watch(this.line.client.call<T>(this.line.credentials, request));
    // One turn of the event loop after the proof: a translator whose read failed has answered by
    // then, and the reads that waited beside it are withdrawn (answered()) rather than sent.
    if (this.first) return this.first.then(() => nextTurn()).then(() => this.sendNow<T>(request));
    const { line } = this;
    const pending = this.watch(
      line.pairs.prove(line.credentials, request.target, (asProof) => {
        // Set only on a proof: every other request keeps the one shape of the literal above.
        if (asProof) request.unmetered = true;
        return line.client.call<T>(line.credentials, request);
      }),
    );
    this.first = pending.then(
      () => this.proven(),
      (error: unknown) => {
        // Any answer but 401 proves v2 accepted the pair. No answer proves nothing: the next call
        // is this call's proof again (under the proof budget, never the key's tokens), unless the
        // service did not answer in time: then the calls that waited for this one are not sent.
        if (error instanceof V2Error && error.status !== 401) this.proven();
        else if (unanswered(error)) this.unanswered = notSentAfter(error);
        else if (!(error instanceof V2Error)) this.first = undefined;
      },
    );
    return pending;
  }

  private proven(): void {
    this.verified = true;
  }

  private watch<T>(pending: Promise<T>): Promise<T> {
    return pending.catch((error: unknown) => {
      if (error instanceof V2Error && error.status === 401 && !this.refused) {
        this.refused = error;
        this.line.onRefused();
      }
      throw error;
    });
  }
}

const ANSWERED_UNSENT = 'The v1 call was answered before this v2 read was sent; it was not sent.';

/** What every v2 request of one v1 call shares: the client, the caller's pair, and the call's observers. */
export interface CallLine {
  client: V2Client;
  credentials: Credentials;
  onSend: () => void;
  requestId: string;
  /** The v1 call's trace, continued by each v2 request. */
  trace: CallTrace;
  /** The v1 call's own-time clock, told of each v2 request's waits. */
  ownTime: OwnTime;
  onResult: ((observation: V2CallObservation) => void) | undefined;
  /** Where the pair is proven (its first v2 call, while v2 has not accepted it lately). */
  pairs: PairProver;
  /** v2 answered 401: the pair is refused (forgotten as proven, its memo dropped). */
  onRefused: () => void;
  /** The call writes through v2 (any method but GET): the key's short-lived reads are stale. */
  onWrite: () => void;
}

/** The key memo seen by one v1 call: the caller's key and pair hash on every entry. */
export class BoundMemo implements CallMemo {
  constructor(
    private readonly memo: KeyMemo,
    private readonly apiKey: string,
    private readonly pair: string,
  ) {}

  aux<T>(name: string, read: () => Promise<T>): Promise<T> {
    return this.memo.auxRead(this.apiKey, this.pair, name, read);
  }

  fact<T>(name: string, read: () => Promise<T>): Promise<T> {
    return this.memo.fact(this.pair, name, read);
  }

  pageToken(chain: string, offset: number): string | undefined {
    return this.memo.pageToken(this.pair, chain, offset);
  }

  keepPageToken(chain: string, offset: number, token: string): void {
    this.memo.keepPageToken(this.pair, chain, offset, token);
  }
}

/**
 * The v1 client's leaving: its connection closed before its answer, with a reason the error table
 * knows. The call's v2 requests still waiting for a token are withdrawn, never sent. Read from
 * Node's response where there is one: asking the adaptor for the web request's signal makes it
 * build a full `Request` per call, which nothing else needs (~2.5% of the gateway's CPU in the
 * checkemail profile); and no AbortSignal is made unless a v2 call has to wait (~3.5 µs each).
 */
export function withdrawnWhenGone(c: Context<{ Bindings: Bindings }>): Leaving {
  const departure = new Departure();
  const withdraw = () => departure.leaveFor(() => new CallWithdrawn());
  const outgoing = c.env?.outgoing;
  if (outgoing) outgoing.once('close', () => outgoing.writableFinished || withdraw());
  else c.req.raw.signal.addEventListener('abort', withdraw, { once: true });
  return departure;
}

/** The TranslatorContext of one v1 call (a class for the same reason as BoundV2). */
export class CallContext implements TranslatorContext {
  private undoApi: V2Api | undefined;
  private callLog: Logger | undefined;

  constructor(
    readonly v2: V2Api,
    private readonly line: CallLine,
    readonly memo: CallMemo,
    private readonly now: () => Date,
    private readonly deadlineMs: number,
    private readonly fanOut: FanOutCheck | undefined,
    private readonly logger: Logger,
    readonly downloadUrl: (file: RecordingFileRef) => string,
    /** The scopes the call's token answer listed; undefined when it listed none (not judged). */
    private readonly scopes: readonly string[] | undefined,
  ) {}

  /** Made on first use: most calls never log (a child logger costs its bindings' serialisation). */
  get log(): Logger {
    return (this.callLog ??= this.logger.child({ reqId: this.line.requestId, trace_id: this.line.trace.traceId }));
  }

  nowIso(): string {
    return isoSeconds(this.now());
  }

  /** Made on first use: most calls never undo anything. The pair is proven (a write it undoes succeeded), and the client's leaving does not withdraw an undo. */
  get undoV2(): V2Api {
    return (this.undoApi ??= new BoundV2(this.line, { priority: 'undo' }, true));
  }

  requireFanOut(route: V2Route<'GET'>, calls: number): void {
    this.fanOut?.(this.line.credentials, route, calls, this.deadlineMs - Date.now());
  }

  canCall(route: V2Route): boolean {
    return opens(this.scopes, route);
  }
}
