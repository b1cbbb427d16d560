import type { V2LimitKind } from '../ratelimit/limit-kind.js';
import type { V2AttemptTrace } from '../shared/trace-context.js';
import type { OwnTime } from '../shared/own-time.js';
import type { Credentials } from './credentials.js';
import type { SharedGet } from './coalesce.js';
import type { UpstreamUnavailable } from './errors.js';
import type { Grant } from './auth/oauth-tokens.js';
import type { ExchangeOutcome, Exchanged, Reading } from './exchange.js';
import type { GateOptions, V2Request } from './v2-request.js';

/** One v2 call as the client (client.ts) carries it across its attempts, its promise, and the promise of an attempt the gate schedules. */

/**
 * One v2 call across its attempts: what each attempt reads and tells, made once per call. A GET's
 * is also what it offers to the identical ones made while it is in flight (coalesce.ts).
 */
export class Call implements SharedGet, Reading, ExchangeOutcome {
  /** The call's outcome (outcomeOf): made before its first attempt, so a GET is offered with it. */
  outcome: Promise<unknown> = NO_OUTCOME;
  /** The settlers of `outcome`: the call is over, answered or failed (client.ts, `finish`). */
  fulfil: (value: unknown) => void = unset;
  fail: (error: unknown) => void = unset;
  /** The coalescing key a GET is offered under (coalesce.ts), forgotten when the call is over. */
  key: string | undefined = undefined;
  /** The answer's text, once it came: for the copies of the GETs that joined this one. */
  text: string | undefined = undefined;
  /** When the call's time is up (epoch ms): set when it is first sent, shared by its attempts. */
  endsAt: number | undefined = undefined;
  /** The attempt being made (1 for the first). */
  attempt = 0;
  /** Whether the attempt was let through the outbound gate. */
  sent = false;
  /** The attempt waits for the gate's `schedule`: its own-time clock is told of the wait (resumed when it is let through or refused). */
  gateWait = false;
  /**
   * The attempt went through the gate's `schedule`: its end settles the attempt's promise (`resolve`,
   * `reject`), which the gate hands back. Otherwise the gate admitted it at once (`admitNow`), and
   * its end is the call's next step, told directly (client.ts, `deliver`).
   */
  viaGate = false;
  /** What the gate that admitted the attempt at once asks to be told when it ends (its send→answer spread). */
  admitted: (() => void) | undefined = undefined;
  /** The attempt was begun and has not ended yet: an exchange's end after the attempt ended otherwise is not told twice. */
  open = false;
  /** The failure a retry follows (only a V2Error or UpstreamUnavailable is retried). */
  failure: Error | undefined = undefined;
  /** The attempt's answer's status, 0 until one came (for its trace and observation). */
  status = 0;
  /** The attempt's answer's `x-zm-trackingid`, for its observation (the call line quotes it). */
  trackingId: string | undefined = undefined;
  /** Whose limit the attempt's 429 met, for its observation (counted by kind). */
  limitKind: V2LimitKind | undefined = undefined;
  /** The attempt's span, if the v1 call is traced. */
  trace: V2AttemptTrace | undefined = undefined;
  /** When the attempt began (performance.now()), for its observation; 0 when nobody observes it. */
  started = 0;
  /** The token the attempt's latest exchange was sent with: what a 401 asks the authorizer about. */
  grant: Grant | undefined = undefined;
  /** Whether the attempt was already sent again with a renewed token (once at most). */
  renewed = false;
  /** The settlers of the promise of an attempt the gate scheduled (attemptOf). */
  resolve: (value: unknown) => void = unset;
  reject: (error: unknown) => void = unset;
  readonly mayHaveApplied: boolean;
  /** The v1 call's own-time clock, which each exchange tells of its wait on v2. */
  readonly ownTime: OwnTime | undefined;

  constructor(
    /** The client's ends of an exchange, for this call's attempts (V2Client.ends). */
    private readonly ends: AttemptEnds,
    readonly credentials: Credentials,
    readonly request: V2Request,
    /** The query as sent (exchange.ts, `queryString`), made once. */
    readonly search: string,
    readonly maxBytes: number,
  ) {
    this.mayHaveApplied = !request.target.route.reads;
    this.ownTime = request.ownTime;
  }

  answered(exchanged: Exchanged): void {
    this.ends.answered(this, exchanged);
  }

  failed(error: UpstreamUnavailable): void {
    this.ends.failed(this, error);
  }
}

/** What the client does when an attempt's exchange ends: one object per client, shared by its calls. */
export interface AttemptEnds {
  answered(call: Call, exchanged: Exchanged): void;
  failed(call: Call, error: unknown): void;
}

const unset = (): void => {};

/**
 * The call whose attempt's promise is being made: the executor below takes its settlers into it,
 * so no closure is made per attempt (the executor runs at once, inside `new Promise`).
 */
let settling: Call | undefined;

/** A new promise for the call's attempt, its settlers kept on the call (`resolve`, `reject`). */
export function attemptOf<T>(call: Call): Promise<T> {
  settling = call;
  return new Promise<T>(takeSettlers);
}
function takeSettlers(resolve: (value: never) => void, reject: (error: unknown) => void): void {
  if (settling) {
    settling.resolve = resolve as (value: unknown) => void;
    settling.reject = reject;
  }
  settling = undefined;
}

/** The call's promise, made once, its settlers kept on the call (`fulfil`, `fail`) and itself as its `outcome`. */
export function outcomeOf<T>(call: Call): Promise<T> {
  settling = call;
  const outcome = new Promise<T>(takeOutcomeSettlers);
  call.outcome = outcome;
  return outcome;
}
function takeOutcomeSettlers(resolve: (value: never) => void, reject: (error: unknown) => void): void {
  if (settling) {
    settling.fulfil = resolve as (value: unknown) => void;
    settling.fail = reject;
  }
  settling = undefined;
}

/** What a call's outcome reads before it is set. */
const NO_OUTCOME: Promise<unknown> = Promise.resolve(undefined);

/** A retry waits for its token no longer than the call's budget (nor the v1 call's deadline). */
export function retryOptions({ request, endsAt }: Call): GateOptions {
  const deadlineMs = Math.min(request.deadlineMs ?? Infinity, endsAt ?? Infinity);
  return { ...request, deadlineMs: deadlineMs === Infinity ? undefined : deadlineMs };
}
