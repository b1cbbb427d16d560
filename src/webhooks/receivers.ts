import { createHash } from 'node:crypto';
import { basicAuthorization } from '../shared/basic-authorization.js';
import type { DeliveryJob } from './journal-types.js';
import type { Subscription } from './subscriptions.js';

/**
 * Where a notification goes, kept apart from what it is: a journaled job names its subscription by
 * a reference and its receiver by the URL without its query, and the subscription's whole URL (a
 * `?secret=` in it) and its `Authorization` are looked up in V1_WEBHOOKS_FILE when the job is
 * delivered. So the journal (a file, or Redis) never holds a receiver's credentials, and a
 * credential changed in the file is the one the next attempt or a replay sends.
 *
 * A reference is the receiver (origin and path), a digest of the api_key and the subscription's
 * place among those of that key at that receiver: stable while the file keeps its entries, and
 * made of nothing secret. A job journaled before references carried the URL and `Authorization`
 * itself, and is delivered with them.
 */

/** Where and how one notification is posted. */
export interface Destination {
  url: string;
  authorization: string | undefined;
}

export class Receivers {
  private readonly byReference = new Map<string, Subscription>();
  private readonly references = new Map<Subscription, string>();

  constructor(subscriptions: readonly Subscription[]) {
    const seen = new Map<string, number>();
    for (const sub of subscriptions) {
      const place = `${receiverOf(sub.url)} ${createHash('sha256').update(sub.api_key).digest('hex').slice(0, 12)}`;
      const index = seen.get(place) ?? 0;
      seen.set(place, index + 1);
      const reference = `${place}#${index}`;
      this.byReference.set(reference, sub);
      this.references.set(sub, reference);
    }
  }

  /** The reference a job journals for `sub` (one of the subscriptions given). */
  referenceOf(sub: Subscription): string {
    const reference = this.references.get(sub);
    if (reference === undefined) throw new Error('not one of these subscriptions');
    return reference;
  }

  /** Where `job` is delivered now; undefined when its subscription is no longer in the file. */
  destinationOf(job: Pick<DeliveryJob, 'subscription' | 'url' | 'authorization'>): Destination | undefined {
    if (job.subscription === undefined) return { url: job.url, authorization: job.authorization };
    const sub = this.byReference.get(job.subscription);
    return sub && { url: sub.url, authorization: basicAuth(sub) };
  }
}

/** A receiver as the journal, the logs and the dead letters show it: its URL without query or fragment. */
export function receiverOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

function basicAuth(sub: Subscription): string | undefined {
  if (sub.username === undefined || sub.password === undefined) return undefined;
  return basicAuthorization(sub.username, sub.password);
}
