import { randomBytes } from 'node:crypto';
import { encryptedToken, SIGNATURE_HEADER, signatureHeader, TIMESTAMP_HEADER, URL_VALIDATION_EVENT } from '../shared/webhook-signature.js';
import type { Instance, Meeting } from './model/meeting.js';

/**
 * The sandbox's v2 event subscriptions and emission, as the real service sends them today: a POST
 * of `{event, event_ts, payload: {account_id, object}}` to the URL registered for the account (or
 * for every account: `*`), signed with the app's secret token (`x-zm-request-timestamp`,
 * `x-zm-signature`: src/shared/webhook-signature.ts). An endpoint is sent events only once it has
 * answered the `endpoint.url_validation` challenge: when it is subscribed, on demand, and again
 * before the first event sent 72 hours after it last did; one that fails is unvalidated and sent
 * nothing (each event it is not sent is counted) until it passes again.
 * `auth: 'verification-token'` brings back what the service sent before the token's sunset, for a
 * receiver written against it: the token in an `Authorization` header, no signature, no challenge.
 * Sends go out one after another, so a receiver hears a meeting's events in the order they happened;
 * a refused send is retried a few times, as the real service does, and then given up.
 */

export type LifecycleEvent = 'started' | 'ended' | 'participant_jbh_joined' | 'participant_jbh_waiting' | 'recording.completed';

export type EventAuth = 'signature' | 'verification-token';

export interface EventSubscription {
  url: string;
  /** The app's secret token (its verification token with `auth: 'verification-token'`). */
  token: string;
  /** Default `signature`: today's service. */
  auth?: EventAuth;
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

const SEND_ATTEMPTS = 3;
const RETRY_DELAY_MS = 200;
/** The service's deadline for an answer to the challenge. */
const VALIDATION_DEADLINE_MS = 3_000;
/** An endpoint is validated again when this long has passed since it last answered. */
export const REVALIDATE_AFTER_MS = 72 * 3_600_000;

export class SandboxEventBus {
  private readonly subscriptions = new Map<string, Held>();
  private tail: Promise<void> = Promise.resolve();

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
    const event = what === 'recording.completed' ? what : `${meeting.kind}.${what}`;
    const body = JSON.stringify({
      event,
      event_ts: this.now().getTime(),
      payload: {
        account_id: meeting.account_id,
        object: {
          id: meeting.id,
          uuid: instance?.uuid ?? meeting.uuid,
          host_id: meeting.host_id,
          topic: meeting.topic,
          type: meeting.type,
          start_time: instance?.start_time ?? meeting.start_time,
        },
      },
    });
    for (const held of new Set(targets)) void this.enqueue(() => this.deliver(held, body));
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
    if (!challengedAuth(subscription)) {
      await send(subscription.url, body, () => ({ authorization: subscription.token }));
      return;
    }
    if (held.validatedAt !== null && this.now().getTime() - held.validatedAt >= REVALIDATE_AFTER_MS) await this.challenge(held);
    if (held.validatedAt === null) {
      held.withheld++;
      return;
    }
    await send(subscription.url, body, () => this.signed(subscription.token, body));
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

/** Sends an event, freshly signed for each attempt (a retry is sent at its own time). */
async function send(url: string, body: string, headers: () => Record<string, string>): Promise<void> {
  for (let attempt = 1; attempt <= SEND_ATTEMPTS; attempt++) {
    try {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers() }, body });
      await response.body?.cancel();
      if (response.ok) return;
    } catch {
      // refused or reset: retried below
    }
    await new Promise((r) => setTimeout(r, RETRY_DELAY_MS * attempt));
  }
}
