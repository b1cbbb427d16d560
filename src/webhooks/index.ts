import type { Hono } from 'hono';
import type { WebhookConfig } from './config.js';
import { Dispatcher, type WebhookStats } from './dispatcher.js';
import { createWebhookIntake } from './intake.js';
import { FileJournal } from './journal.js';
import { loadSubscriptions } from './subscriptions.js';

export type { WebhookStats } from './dispatcher.js';
export { readWebhookConfig, type WebhookConfig } from './config.js';

/** The v1 webhook service of one gateway process: intake routes, journal, delivery, stats. */
export interface Webhooks {
  routes: Hono;
  stats(): WebhookStats;
  dispatcher: Dispatcher;
  close(): void;
}

export function startWebhooks(config: WebhookConfig): Webhooks | undefined {
  if (!config.file || !config.token) return undefined;
  const subscriptions = loadSubscriptions(config.file, config.anyPort);
  const journal = new FileJournal(config.journalFile);
  const dispatcher = new Dispatcher(journal, {
    maxAttempts: config.maxAttempts,
    deadlineMs: config.deadlineMs,
    backoffMs: config.backoffMs,
    // One at a time per receiver keeps a meeting's notifications in order.
    perReceiverConcurrency: 1,
  });
  dispatcher.resume();
  return {
    routes: createWebhookIntake({ token: config.token, subscriptions, dispatcher }),
    stats: () => dispatcher.stats(),
    dispatcher,
    close() {
      dispatcher.close();
      journal.close();
    },
  };
}
