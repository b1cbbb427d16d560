import type { Instance, Meeting } from './model/meeting.js';

/**
 * The sandbox's v2 event subscriptions and emission, as the real service sends them: a POST of
 * `{event, event_ts, payload: {account_id, object}}` with the app's verification token in the
 * Authorization header, to the URL registered for the account (or for every account: `*`).
 * Sends go out one after another, so a receiver hears a meeting's events in the order they happened;
 * a refused send is retried a few times, as the real service does, and then given up.
 */

export type LifecycleEvent = 'started' | 'ended' | 'participant_jbh_joined' | 'participant_jbh_waiting' | 'recording.completed';

export interface EventSubscription {
  url: string;
  token: string;
}

const SEND_ATTEMPTS = 3;
const RETRY_DELAY_MS = 200;

export class SandboxEventBus {
  private readonly subscriptions = new Map<string, EventSubscription>();
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly now: () => Date) {}

  /** One subscription per account (`*`: every account); a new one replaces the old. */
  subscribe(accountId: string, subscription: EventSubscription): void {
    this.subscriptions.set(accountId, subscription);
  }

  list(): Array<{ account_id: string; url: string }> {
    return [...this.subscriptions].map(([account_id, s]) => ({ account_id, url: s.url }));
  }

  /** Emits what happened to a meeting or webinar; `recording.completed` keeps its name for both. */
  emit(meeting: Meeting, instance: Instance | null, what: LifecycleEvent): void {
    const targets = [this.subscriptions.get(meeting.account_id), this.subscriptions.get('*')].filter((s): s is EventSubscription => !!s);
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
    for (const target of new Set(targets)) this.tail = this.tail.then(() => send(target, body));
  }

  /** Resolves when every event emitted so far has been sent (or given up). */
  flushed(): Promise<void> {
    return this.tail;
  }
}

async function send(target: EventSubscription, body: string): Promise<void> {
  for (let attempt = 1; attempt <= SEND_ATTEMPTS; attempt++) {
    try {
      const response = await fetch(target.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: target.token },
        body,
      });
      await response.body?.cancel();
      if (response.ok) return;
    } catch {
      // refused or reset: retried below
    }
    await new Promise((r) => setTimeout(r, RETRY_DELAY_MS * attempt));
  }
}
