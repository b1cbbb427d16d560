import { randomBytes } from 'node:crypto';
import {
  encryptedToken,
  SIGNATURE_HEADER,
  signatureHeader,
  TIMESTAMP_HEADER,
  URL_VALIDATION_EVENT,
} from '../v2-contract/webhook-signature.js';
import type { Instance, Meeting } from './model/meeting.js';
import { eventBody, type LifecycleEvent } from './event-payloads.js';
import { trackingId } from './ids.js';

export type { LifecycleEvent } from './event-payloads.js';

/**
 * The sandbox's v2 event subscriptions and emission, as the real service sends them today: a POST
 * of `{event, event_ts, payload: {account_id, object}}` to the URL registered for the account (or
 * for every account: `*`), signed with the app's secret token (`x-zm-request-timestamp`,
 * `x-zm-signature`: src/v2-contract/webhook-signature.ts). An endpoint is sent events only once it has
 * answered the `endpoint.url_validation` challenge: when it is subscribed, on demand, and again
 * before the first event sent 72 hours after it last did; one that fails is unvalidated and sent
 * nothing (each event it is not sent is counted) until it passes again.
 * `auth: 'verification-token'` brings back what the service sent before the token's sunset, for a
 * receiver written against it: the token in an `Authorization` header, no signature, no challenge.
 * Sends go out one after another, so a receiver hears a meeting's events in the order they happened.
 * A send not answered 2XX within 3 s is sent again on the service's schedule (5 minutes later, then
 * 20, then 60, then never: RETRY_AFTER_MS), the schedule multiplied by the subscription's
 * `retryScale` (tests shorten it), each retry the same request: the first timestamp and signature,
 * the case a receiver must survive (whether the service signs a retry again is not documented).
 * Every request carries the service's headers: `user-agent: Zoom Marketplace/1.0a`, `clientid` and
 * an `x-zm-trackingid` of its own.
 */

export type EventAuth = 'signature' | 'verification-token';

export interface EventSubscription {
  url: string;
  /** The app's secret token (its verification token with `auth: 'verification-token'`). */
  token: string;
  /** Default `signature`: today's service. */
  auth?: EventAuth;
  /** The app's client id, sent in `clientid`. */
  clientId?: string;
  /** Multiplies the retry schedule (RETRY_AFTER_MS); default 1, the service's. */
  retryScale?: number;
}

/** A subscription as the control API shows it. */
export interface SubscriptionView {
  account_id: string;
  url: string;
  auth: EventAuth;
  validated: boolean;
  /** When the endpoint last answered the challenge (ISO), if it ever did. */
  validated_at: string | null;
  /** Why the last challenge failed, while the endpoint is unvalidated. */
  validation_error: string | null;
  /** Events not sent because the endpoint was unvalidated. */
  withheld: number;
}

interface Held {
  subscription: EventSubscription;
  /** The latest challenge queued, settled once its outcome is known. */
  challenged: Promise<void>;
  validatedAt: number | null;
  validationError: string | null;
  withheld: number;
}

/** A challenge the endpoint could not be reached for is asked again this many times in all, a moment apart. */
const SEND_ATTEMPTS = 3;
const RETRY_DELAY_MS = 200;
/** The service's deadline for an answer to the challenge, and for a 2XX to an event. */
const VALIDATION_DEADLINE_MS = 3_000;
export const DELIVERY_DEADLINE_MS = 3_000;
/** When an event not taken is sent again, each after the one before (https://devsupport.zoom.us/hc/en-us/articles/360059893812-Webhook-delays). */
export const RETRY_AFTER_MS = [5 * 60_000, 20 * 60_000, 60 * 60_000] as const;
/** The service's requests say who sends them (its webhook sample's logged headers). */
const USER_AGENT = 'Zoom Marketplace/1.0a';
/** An endpoint is validated again when this long has passed since it last answered. */
export const REVALIDATE_AFTER_MS = 72 * 3_600_000;

export class SandboxEventBus {
  private readonly subscriptions = new Map<string, Held>();
  private tail: Promise<void> = Promise.resolve();
  /** Retries waiting for their time: cancelled when the sandbox closes. */
  private readonly retries = new Set<NodeJS.Timeout>();
  /** Every request sent for events (first sends and retries), for tests to read. */
  readonly sent: { at: number; event: string; attempt: number; status: number | 'no answer' }[] = [];

  constructor(private readonly now: () => Date) {}

  /** One subscription per account (`*`: every account); a new one replaces the old and is challenged before any event is sent to it. */
  subscribe(accountId: string, subscription: EventSubscription): void {
    const held: Held = {
      subscription,
      challenged: Promise.resolve(),
      validatedAt: null,
      validationError: challengedAuth(subscription) ? 'not validated yet' : null,
      withheld: 0,
    };
    this.subscriptions.set(accountId, held);
    if (challengedAuth(subscription)) held.challenged = this.enqueue(() => this.challenge(held));
  }

  /** Challenges the account's endpoint again (after every send queued before); undefined when it has no subscription. */
  validate(accountId: string): Promise<SubscriptionView | undefined> {
    const held = this.subscriptions.get(accountId);
    if (held && challengedAuth(held.subscription)) held.challenged = this.enqueue(() => this.challenge(held));
    return this.settled(accountId);
  }

  /** The account's subscription once its latest challenge has an outcome; undefined when it has none. */
  async settled(accountId: string): Promise<SubscriptionView | undefined> {
    const held = this.subscriptions.get(accountId);
    if (!held) return undefined;
    await held.challenged;
    return this.view(accountId, held);
  }

  list(): SubscriptionView[] {
    return [...this.subscriptions].map(([accountId, held]) => this.view(accountId, held));
  }

  /** Emits what happened to a meeting or webinar; `recording.completed` keeps its name for both. */
  emit(meeting: Meeting, instance: Instance | null, what: LifecycleEvent): void {
    const targets = [this.subscriptions.get(meeting.account_id), this.subscriptions.get('*')].filter((s): s is Held => !!s);
    if (targets.length === 0) return;
    const body = eventBody(meeting, instance, what, this.now().getTime());
    for (const held of new Set(targets)) void this.enqueue(() => this.deliver(held, body));
  }

  /** Retries not yet sent are dropped (the sandbox is closing). */
  close(): void {
    for (const timer of this.retries) clearTimeout(timer);
    this.retries.clear();
  }
  /** Resolves when every event and challenge queued so far has been sent (or given up). */
  flushed(): Promise<void> {
    return this.tail;
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    // Every step catches its own failures; the catch keeps one unforeseen throw from stopping every later send.
    this.tail = this.tail.then(step).catch(() => {});
    return this.tail;
  }

  private async deliver(held: Held, body: string): Promise<void> {
    const { subscription } = held;
    if (challengedAuth(subscription)) {
      if (held.validatedAt !== null && this.now().getTime() - held.validatedAt >= REVALIDATE_AFTER_MS) await this.challenge(held);
      if (held.validatedAt === null) {
        held.withheld++;
        return;
      }
    }
    // Signed once: a retry is the same request, sent again.
    const auth = challengedAuth(subscription) ? this.signed(subscription.token, body) : { authorization: subscription.token };
    const headers = { 'user-agent': USER_AGENT, ...(subscription.clientId ? { clientid: subscription.clientId } : {}), ...auth };
    await this.attempt(subscription, body, headers, 1);
  }

  /** One send; not taken in time, the next is scheduled (outside the queue: later events go on meanwhile). */
  private async attempt(subscription: EventSubscription, body: string, headers: Record<string, string>, attempt: number): Promise<void> {
    const status = await post(subscription.url, body, { ...headers, 'x-zm-trackingid': trackingId() });
    this.sent.push({ at: Date.now(), event: (JSON.parse(body) as { event: string }).event, attempt, status });
    if (typeof status === 'number' && status >= 200 && status < 300) return;
    const wait = RETRY_AFTER_MS[attempt - 1];
    if (wait === undefined) return;
    const timer = setTimeout(
      () => {
        this.retries.delete(timer);
        void this.attempt(subscription, body, headers, attempt + 1);
      },
      wait * (subscription.retryScale ?? 1),
    );
    timer.unref();
    this.retries.add(timer);
  }

  /** Sends the challenge; the endpoint is validated when it answers 200 with the plain token and its HMAC. */
  private async challenge(held: Held): Promise<void> {
    const { url, token } = held.subscription;
    const plainToken = randomBytes(16).toString('base64url');
    const body = JSON.stringify({ payload: { plainToken }, event_ts: this.now().getTime(), event: URL_VALIDATION_EVENT });
    const check = (answer: unknown) => {
      const given = answer as { plainToken?: unknown; encryptedToken?: unknown } | null;
      if (given?.plainToken !== plainToken) return 'the answer did not return the plainToken';
      if (given.encryptedToken !== encryptedToken(token, plainToken)) return 'the encryptedToken is not the HMAC of the plainToken';
      return null;
    };
    // An endpoint that answers is judged by that answer; one that cannot be reached is tried again, as a send is.
    let problem = await ask(url, body, this.signed(token, body), check);
    for (let attempt = 2; problem?.unreachable && attempt <= SEND_ATTEMPTS; attempt++) {
      await new Promise((r) => setTimeout(r, RETRY_DELAY_MS * attempt));
      problem = await ask(url, body, this.signed(token, body), check);
    }
    held.validatedAt = problem === null ? this.now().getTime() : null;
    held.validationError = problem?.message ?? null;
  }

  private signed(token: string, body: string): Record<string, string> {
    const timestamp = String(Math.floor(this.now().getTime() / 1000));
    return { [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: signatureHeader(token, timestamp, body) };
  }

  private view(accountId: string, held: Held): SubscriptionView {
    return {
      account_id: accountId,
      url: held.subscription.url,
      auth: held.subscription.auth ?? 'signature',
      validated: held.validatedAt !== null || !challengedAuth(held.subscription),
      validated_at: held.validatedAt === null ? null : new Date(held.validatedAt).toISOString(),
      validation_error: held.validationError,
      withheld: held.withheld,
    };
  }
}

/** Today's service challenges every endpoint; before the verification token's sunset, none. */
function challengedAuth(subscription: EventSubscription): boolean {
  return (subscription.auth ?? 'signature') === 'signature';
}

type Problem = { message: string; unreachable?: true } | null;

/** One challenge: the problem with its answer, or null when `check` accepts its JSON. */
async function ask(
  url: string,
  body: string,
  headers: Record<string, string>,
  check: (answer: unknown) => string | null,
): Promise<Problem> {
  const problem = (message: string | null): Problem => (message === null ? null : { message });
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(VALIDATION_DEADLINE_MS),
    });
    const text = await response.text();
    if (response.status !== 200) return problem(`the endpoint answered ${response.status}`);
    try {
      return problem(check(JSON.parse(text)));
    } catch {
      return problem('the answer was not JSON');
    }
  } catch (error) {
    return { message: `the endpoint could not be reached (${(error as Error).name})`, unreachable: true };
  }
}

/** Sends an event once: its status, or `no answer` when none came within the service's 3 s. */
async function post(url: string, body: string, headers: Record<string, string>): Promise<number | 'no answer'> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(DELIVERY_DEADLINE_MS),
    });
    await response.body?.cancel();
    return response.status;
  } catch {
    // refused, reset or past the deadline: no 2XX
    return 'no answer';
  }
}
