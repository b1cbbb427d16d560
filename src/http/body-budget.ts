import { Failure } from '../shared/failure.js';

/**
 * What a request's body may be, and how reading one fails: the budget the server gives each
 * request it accepts, the pool of bytes all its bodies share, and the one error every body
 * problem is. The reader (request-body.ts), the reader of HTTP/1.0 bodies sent without a length
 * (unframed-bodies.ts) and the state each connection and request carries (transport-state.ts)
 * all speak it.
 */

export type BodyProblem = 'too-large' | 'incomplete' | 'aborted' | 'too-slow' | 'busy';

/** The HTTP status of each problem, for routes whose errors carry one (v1 envelopes are HTTP 200). */
const STATUS: Record<BodyProblem, 400 | 408 | 413 | 503> = { 'too-large': 413, 'too-slow': 408, incomplete: 400, aborted: 400, busy: 503 };

export class BodyReadError extends Failure {
  override readonly name = 'BodyReadError';
  readonly kind = 'unreadable-body';
  constructor(
    readonly problem: BodyProblem,
    message: string,
  ) {
    super(message);
  }

  get status(): 400 | 408 | 413 | 503 {
    return STATUS[this.problem];
  }
}

export interface BodyLimits {
  maxBytes: number;
  idleTimeoutMs: number;
}

/** What the server that accepted a request allows it: the settings V1_MAX_BODY_BYTES, V1_BODY_TIMEOUT_MS, V1_REQUEST_TIMEOUT_MS, V1_MAX_FIELDS, V1_MAX_BUFFERED_BYTES. */
export interface RequestBudget extends BodyLimits {
  /** How long the whole request (headers and body) may take to arrive; named in the too-slow message. */
  requestTimeoutMs: number;
  /** The most form fields read from one request, query string and body together. */
  maxFields: number;
  /** The bodies the server holds at once, all its requests together (none: a request no server of ours accepted). */
  bodies?: BodyPool;
}

/** V1_MAX_BUFFERED_BYTES's default, in bodies of the largest size: 64 MiB with the default 4 MiB bodies. */
export const BUFFERED_BODIES_PER_BODY = 16;

/**
 * The bytes of each body that are its own, never taken from the pool: an ordinary v1 call's whole
 * form, so that a pool filled by large bodies refuses large bodies, not ordinary calls. What
 * these cost in all is bounded by the server's connection cap (src/http/server.ts).
 */
export const FREE_BODY_BYTES = 16 * 1024;

/**
 * The request-body bytes one server holds at once, past each body's first FREE_BODY_BYTES: taken
 * as they arrive, given back when the request's answer has gone (or at once when its read fails).
 * A hundred 4 MiB uploads at once would otherwise hold 400 MiB, however small each body's own limit.
 */
export class BodyPool {
  private held = 0;

  constructor(readonly maxBytes: number) {}

  /** Takes `bytes` more; false, taking nothing, when that would pass the bound. */
  take(bytes: number): boolean {
    if (this.held + bytes > this.maxBytes) return false;
    this.held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
  }

  /** What is held now. */
  get inUse(): number {
    return this.held;
  }

  /** Whether a body of `bytes` could be taken now (a declared length is checked before a byte is read). */
  fits(bytes: number): boolean {
    return this.held + Math.max(0, bytes - FREE_BODY_BYTES) <= this.maxBytes;
  }
}

/** The pool bytes a body takes when it grows from `before` to `after` bytes (its first FREE_BODY_BYTES are free). */
export function pooledGrowth(before: number, after: number): number {
  return Math.max(0, after - FREE_BODY_BYTES) - Math.max(0, before - FREE_BODY_BYTES);
}

/** The settings' defaults: the budget of a request that no server of ours accepted (the sandbox alone, a test's `app.request`). */
export const DEFAULT_BUDGET: RequestBudget = {
  maxBytes: 4 * 1024 * 1024,
  idleTimeoutMs: 3_000,
  requestTimeoutMs: 30_000,
  maxFields: 1_000,
};

export function tooLarge(maxBytes: number): BodyReadError {
  return new BodyReadError('too-large', `The request body is larger than the ${maxBytes} bytes v1gate accepts.`);
}

export function busy(pool: BodyPool): BodyReadError {
  return new BodyReadError(
    'busy',
    `v1gate is holding as many request bodies as it may at once (${pool.maxBytes} bytes in all): send the request again shortly.`,
  );
}

export function tooSlow(requestTimeoutMs: number): BodyReadError {
  return new BodyReadError('too-slow', `The request did not arrive in full within ${requestTimeoutMs} ms.`);
}
