import type { Metric } from 'prom-client';
import type { WebhookStats } from '../webhooks/dispatcher.js';
import { statsMetric } from './metrics.js';

/**
 * The v1 push notifications' counters, read from the dispatcher's `stats()` at scrape time: the
 * delivery path pays nothing for them. Receivers are labelled by host only (a subscribed URL may
 * carry `?secret=...`, which must never become a label).
 */
export function webhookMetrics(stats: () => WebhookStats): Metric[] {
  return [
    statsMetric('counter', 'v1gate_webhook_deliveries_total', 'v1 notifications delivered (2XX).', [], () => [
      { labels: {}, value: stats().deliveries },
    ]),
    statsMetric('counter', 'v1gate_webhook_retries_total', 'v1 notification attempts that failed and were retried.', [], () => [
      { labels: {}, value: stats().retries },
    ]),
    statsMetric('counter', 'v1gate_webhook_dead_letters_total', 'v1 notifications dead-lettered after their last attempt.', [], () => [
      { labels: {}, value: stats().deadLetters },
    ]),
    statsMetric('gauge', 'v1gate_webhook_journal_depth', 'v1 notifications in the journal not yet delivered or dead', [], () => [
      { labels: {}, value: stats().journalDepth },
    ]),
    statsMetric('gauge', 'v1gate_webhook_receiver_queue_depth', 'v1 notifications queued per receiver host', ['receiver'], () => {
      const byHost = new Map<string, number>();
      for (const [receiver, depth] of Object.entries(stats().receiverQueueDepth)) {
        const host = hostOf(receiver);
        byHost.set(host, (byHost.get(host) ?? 0) + depth);
      }
      return [...byHost].map(([receiver, value]) => ({ labels: { receiver }, value }));
    }),
  ];
}

function hostOf(receiver: string): string {
  try {
    return new URL(receiver).host;
  } catch {
    return 'other';
  }
}
