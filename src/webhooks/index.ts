import type { Hono } from 'hono';
import type { Logger } from 'pino';
import type { WebhookConfig } from './config.js';
import { Dispatcher, type WebhookStats } from './dispatcher.js';
import { createWebhookIntake } from './intake.js';
import { FileJournal } from './journal.js';
import type { Journal } from './journal-types.js';
import { Receivers } from './receivers.js';
import { RedisJournal } from './redis-journal.js';
import { loadSubscriptions } from './subscriptions.js';

export type { WebhookStats } from './dispatcher.js';
export { WEBHOOK_SETTINGS, type WebhookConfig } from './config.js';

/** The v1 webhook service of one gateway process: intake routes, journal, delivery, stats. */
export interface Webhooks {
  routes: Hono;
  stats(): WebhookStats;
  dispatcher: Dispatcher;
  close(): void;
}

/** The webhook service, when V1_WEBHOOKS_FILE is set; its trouble (journal errors, dead letters) goes to `logger`. */
export function startWebhooks(config: WebhookConfig, logger: Logger, now?: () => number): Webhooks | undefined {
  if (!config.file || !config.token) return undefined;
  const subscriptions = loadSubscriptions(config.file, config.anyPort);
  // REDIS_URL: several gateway processes share the work and the journal; else this process's file.
  const { redis } = config;
  const journal: Journal = redis.url
    ? new RedisJournal({
        url: redis.url,
        keyPrefix: redis.keyPrefix,
        claimIdleMs: redis.claimIdleMs,
        dedupeTtlMs: redis.dedupeTtlMs,
        consumer: redis.consumer,
        logger,
      })
    : new FileJournal(config.journalFile, { rememberDeliveredMs: redis.dedupeTtlMs });
  const dispatcher = new Dispatcher(journal, {
    maxAttempts: config.maxAttempts,
    deadlineMs: config.deadlineMs,
    backoffMs: config.backoffMs,
    // One at a time per receiver keeps a meeting's notifications in order (within one process:
    // with Redis, two processes may each hold some of a meeting's notifications).
    perReceiverConcurrency: 1,
    receivers: new Receivers(subscriptions),
    logger,
  });
  dispatcher.resume();
  return {
    routes: createWebhookIntake({
      secrets: [config.token, config.previousToken],
      maxAgeMs: config.maxAgeMs,
      // Both journals remember a notification id this long (the file journal's delivered ids, Redis's dedupe keys).
      rememberMs: redis.dedupeTtlMs,
      subscriptions,
      dispatcher,
      logger,
      ...(now ? { now } : {}),
    }),
    stats: () => dispatcher.stats(),
    dispatcher,
    close() {
      dispatcher.close();
      // A Redis journal quits in the background: callers close synchronously, and nothing
      // acknowledged depends on it (pending entries stay in Redis for the next consumer).
      void Promise.resolve(journal.close()).catch(() => {});
    },
  };
}
