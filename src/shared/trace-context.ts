import { randomFillSync } from 'node:crypto';

/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/): reading a `traceparent` and a
 * `tracestate` a client sent, strictly and within bounds (anyone can send one), making new ids,
 * and writing the headers sent on. What every v1 call does whether spans are exported or not, so
 * it costs no more than a header parse and a few random bytes, and loads nothing else.
 */

/** A valid `traceparent`, as read. */
export interface TraceParent {
  /** 32 lowercase hex digits, not all zero. */
  readonly traceId: string;
  /** The caller's span: 16 lowercase hex digits, not all zero. */
  readonly parentId: string;
  /** The flags v1gate passes on: sampled (0x01) and random (0x02, Level 2); others are dropped. */
  readonly flags: number;
}

export const SAMPLED = 0x01;
const KNOWN_FLAGS = 0x03;

/** A version 00 header is exactly this long; later versions begin with the same 55 characters. */
const VERSION_00_LENGTH = 55;
/** The longest `traceparent` read at all (a later version may append fields; none needs more). */
const MAX_TRACEPARENT_LENGTH = 512;
const TRACEPARENT_START = /^[\da-f]{2}-[\da-f]{32}-[\da-f]{16}-[\da-f]{2}/;
const ZERO_TRACE_ID = '0'.repeat(32);
const ZERO_SPAN_ID = '0'.repeat(16);

/**
 * The `traceparent` header, or undefined when it is absent or invalid (then the call starts a new
 * trace, as the spec says). Version 00 is exactly `00-<trace-id>-<parent-id>-<flags>`; a later
 * version is read by the same first 55 characters when what follows them starts with `-`; version
 * ff, upper-case hex, all-zero ids, and two headers joined into one are invalid.
 */
export function parseTraceparent(header: string | undefined): TraceParent | undefined {
  if (header === undefined || header.length < VERSION_00_LENGTH || header.length > MAX_TRACEPARENT_LENGTH) return undefined;
  if (!TRACEPARENT_START.test(header)) return undefined;
  const version = header.slice(0, 2);
  if (version === 'ff') return undefined;
  if (version === '00' ? header.length !== VERSION_00_LENGTH : header.length > VERSION_00_LENGTH && header[VERSION_00_LENGTH] !== '-') {
    return undefined;
  }
  const traceId = header.slice(3, 35);
  const parentId = header.slice(36, 52);
  if (traceId === ZERO_TRACE_ID || parentId === ZERO_SPAN_ID) return undefined;
  return { traceId, parentId, flags: Number.parseInt(header.slice(53, 55), 16) & KNOWN_FLAGS };
}

/** The longest `tracestate` header read at all: a longer one is dropped unread. */
export const MAX_TRACESTATE_INPUT = 8192;
/** The most list members a `tracestate` may have (the spec's limit). */
const MAX_TRACESTATE_MEMBERS = 32;
/** What is passed on: the spec asks every vendor to propagate at least 512 characters, and v1gate passes no more. */
export const MAX_TRACESTATE_LENGTH = 512;
/** Members longer than this are the first to go when the header must be cut (the spec's order). */
const LONG_MEMBER = 128;
/** One list member, `key=value`, as the specification's grammar writes them (a simple or a multi-tenant key). */
const TRACESTATE_MEMBER =
  /^(?:[a-z][\d_a-z*/-]{0,255}|[\da-z][\d_a-z*/-]{0,240}@[a-z][\d_a-z*/-]{0,13})=[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;

/**
 * The `tracestate` to pass on, or undefined. Read only beside a valid `traceparent` (the spec's
 * rule). Invalid as a whole (and dropped) when a member is malformed, a key repeats, or there are
 * more than 32 members; empty members and the spaces around members are left out. A result over
 * 512 characters is cut as the spec says: members over 128 characters first, then from the end.
 * A header already in that form is passed on as it came (the common case: no new string is made).
 */
export function parseTracestate(header: string | undefined): string | undefined {
  if (header === undefined || header.length > MAX_TRACESTATE_INPUT) return undefined;
  const members: string[] = [];
  const keys: string[] = [];
  let asSent = true;
  for (const part of header.split(',')) {
    const member = withoutSpaces(part);
    if (member !== part) asSent = false;
    if (member === '') continue;
    if (!TRACESTATE_MEMBER.test(member)) return undefined;
    const key = member.slice(0, member.indexOf('='));
    if (keys.includes(key) || keys.push(key) > MAX_TRACESTATE_MEMBERS) return undefined;
    members.push(member);
  }
  if (members.length === 0) return undefined;
  return asSent && header.length <= MAX_TRACESTATE_LENGTH ? header : withinLength(members);
}

/** The member without the spaces and tabs (HTTP's optional whitespace) around it. */
function withoutSpaces(part: string): string {
  let from = 0;
  let to = part.length;
  while (from < to && isSpace(part.charCodeAt(from))) from++;
  while (to > from && isSpace(part.charCodeAt(to - 1))) to--;
  return from === 0 && to === part.length ? part : part.slice(from, to);
}

const isSpace = (code: number) => code === 0x20 || code === 0x09;

/** The members joined, cut to MAX_TRACESTATE_LENGTH: long members dropped first, then the last ones. */
function withinLength(members: string[]): string {
  let kept = members;
  const length = () => kept.reduce((sum, member) => sum + member.length, kept.length - 1);
  if (length() > MAX_TRACESTATE_LENGTH) kept = kept.filter((member) => member.length <= LONG_MEMBER);
  while (kept.length > 0 && length() > MAX_TRACESTATE_LENGTH) kept = kept.slice(0, -1);
  return kept.join(',');
}

/** `00-<trace-id>-<span-id>-<flags>`: the only version v1gate writes. */
export function formatTraceparent(traceId: string, spanId: string, flags: number): string {
  return `00-${traceId}-${spanId}-${flags < 16 ? '0' : ''}${flags.toString(16)}`;
}

/**
 * Random bytes for ids, drawn from the system's generator 4 KiB at a time and written as hex once
 * per draw: one `randomBytes` per id would enter the generator on every v1 call, and a
 * `toString('hex')` per id crossed into native code two or three times a call; an id is now a
 * slice of the hex.
 */
const pool = Buffer.allocUnsafe(4096);
let hex = '';
let taken = 0;

function randomHex(bytes: number, zero: string): string {
  const digits = 2 * bytes;
  for (;;) {
    if (taken + digits > hex.length) {
      randomFillSync(pool);
      hex = pool.toString('hex');
      taken = 0;
    }
    const id = hex.slice(taken, taken + digits);
    taken += digits;
    if (id !== zero) return id; // all zeros is the one invalid id
  }
}

export const newTraceId = (): string => randomHex(16, ZERO_TRACE_ID);
/** A new span id: 8 random bytes, as 16 lowercase hex digits. */
export const newSpanId = (): string => randomHex(8, ZERO_SPAN_ID);

/**
 * What one attempt of one v2 call sends for tracing (the `traceparent` naming the attempt's own span,
 * and the `tracestate` passed on), and, where spans are recorded, how its span ends.
 */
export interface V2AttemptTrace {
  readonly traceparent: string;
  readonly tracestate: string | undefined;
  /** Ends the attempt's span with the HTTP status it got (0: no answer); undefined when nothing is recorded. */
  readonly finish: ((status: number) => void) | undefined;
}

/** What an attempt's span names of its v2 route: a `V2Route` is one, named by shape as the trace context is below the routes. */
export interface TracedRoute {
  readonly method: string;
  /** The path as the v2 spec writes it: `/users/{userId}`, never the ids of one call. */
  readonly template: string;
}

/** The trace of the v1 call a v2 request belongs to: asked once per attempt, just before it is sent. */
export interface V2Tracing {
  attempt(route: TracedRoute, attempt: number, undo: boolean): V2AttemptTrace;
}

/** What a v1 call's span says of it when it ends: never a param value or a credential. */
export interface CallOutcome {
  /** The HTTP method the client used. */
  readonly method: string;
  /** The endpoint's canonical path (`/user/get`), undefined when no endpoint matched. */
  readonly endpoint: string | undefined;
  readonly errorCode: number | undefined;
  readonly dataType: string;
  /** v2 requests sent. */
  readonly v2Calls: number;
}

/** The trace of one v1 call: its ids, the header of its answer, and the trace of its v2 calls. */
export interface CallTrace extends V2Tracing {
  readonly traceId: string;
  /** The v1 call's own span id: the parent of its v2 calls, and what the answer names. */
  readonly spanId: string;
  /** Whether the call's span is recorded (and so `end` wants an outcome). */
  readonly recording: boolean;
  /** The answer's `traceresponse` header: `00-<trace-id>-<span-id>-<flags>`. */
  readonly traceresponse: string;
  end(outcome: CallOutcome): void;
}

/** Starts the trace of each v1 call from what its client sent (`traceparent`, `tracestate` headers). */
export interface CallTracer {
  start(traceparent: string | undefined, tracestate: string | undefined): CallTrace;
}

/**
 * A v1 call's trace when no span is recorded: the client's trace continued (or a new one), under a
 * span id of its own that each v2 call names as its parent. One object per call, nothing per v2
 * call: every attempt sends the same headers.
 */
class PropagatedTrace implements CallTrace, V2AttemptTrace {
  readonly spanId = newSpanId();
  readonly traceId: string;
  readonly traceparent: string;
  readonly tracestate: string | undefined;
  readonly recording = false;
  readonly finish = undefined;

  constructor(parent: TraceParent | undefined, tracestate: string | undefined) {
    this.traceId = parent?.traceId ?? newTraceId();
    // Nothing is recorded here, so no sampling decision is made: the client's flags go on as they came.
    this.traceparent = formatTraceparent(this.traceId, this.spanId, parent?.flags ?? 0);
    this.tracestate = parent ? tracestate : undefined;
  }

  get traceresponse(): string {
    return this.traceparent;
  }

  attempt(): V2AttemptTrace {
    return this;
  }

  end(): void {
    // nothing recorded, nothing to end
  }
}

/** Trace context without spans: what every v1 call has when no exporter is configured. */
export const propagateOnly: CallTracer = {
  start: (traceparent, tracestate) => {
    const parent = parseTraceparent(traceparent);
    return new PropagatedTrace(parent, parent ? parseTracestate(tracestate) : undefined);
  },
};
