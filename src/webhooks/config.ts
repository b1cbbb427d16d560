import { z } from 'zod';
import { envSection, onOff, wholeNumber } from '../shared/env.js';
import { hasControlCharacter } from '../shared/control-characters.js';
import { RATE_LIMIT_SETTINGS } from '../ratelimit/config.js';

/** V1 webhook settings from the environment; unset V1_WEBHOOKS_FILE: webhooks off. */
export interface WebhookConfig {
  file: string | undefined;
  journalFile: string;
  /** The v2 app's secret token: what signs the events sent to /webhooks/v2, and opens its dead-letter routes. */
  token: string | undefined;
  /** The secret token before a rotation, still accepted beside `token` until it is unset. */
  previousToken: string | undefined;
  /** How far an event's `x-zm-request-timestamp` may be from now, either way. */
  maxAgeMs: number;
  anyPort: boolean;
  deadlineMs: number;
  backoffMs: number;
  maxAttempts: number;
  /** Set: the Redis Streams journal, shared by every gateway on this Redis and prefix; unset: the file journal. */
  redis: {
    url: string | undefined;
    keyPrefix: string;
    claimIdleMs: number;
    dedupeTtlMs: number;
    consumer: string | undefined;
  };
}

/** The webhook section of the configuration (src/config.ts reads every section together). */
export const WEBHOOK_SETTINGS = envSection({
  title: 'v1 push notifications (webhooks)',
  variables: {
    V1_WEBHOOKS_FILE: z
      .string()
      .min(1)
      .optional()
      .describe('v1 push-notification subscriptions (JSON; docs/push-notifications.md); unset: webhooks off'),
    V1_WEBHOOKS_JOURNAL: z
      .string()
      .min(1)
      .default('data/webhooks.journal')
      .describe('the on-disk journal of pending and dead notifications (unused with REDIS_URL); default data/webhooks.journal'),
    V2_WEBHOOK_SECRET_TOKEN: z
      .string()
      .min(8, 'must be at least 8 characters')
      .refine((token) => !hasControlCharacter(token), 'holds a control character (a line end copied with it?)')
      .optional()
      .describe("the v2 app's secret token: every event to /webhooks/v2 must carry its x-zm-signature (required with V1_WEBHOOKS_FILE)"),
    V2_WEBHOOK_PREVIOUS_SECRET_TOKEN: z
      .string()
      .min(8, 'must be at least 8 characters')
      .refine((token) => !hasControlCharacter(token), 'holds a control character (a line end copied with it?)')
      .optional()
      .describe('during a rotation of the secret token: the old one, still accepted beside V2_WEBHOOK_SECRET_TOKEN; unset: only that one'),
    V2_WEBHOOK_MAX_AGE_S: wholeNumber(1, 3_600)
      .default(300)
      .describe(
        "an event whose x-zm-request-timestamp is further than this ahead of now is refused, unread (one behind now is taken as long as V1_WEBHOOKS_DEDUPE_TTL_MS, so the service's retries are not lost); default 300 (5 minutes)",
      ),
    V1_WEBHOOKS_ANY_PORT: onOff.default(false).describe('allow receivers on ports other than 80 and 443 (local testing); default off'),
    V1_WEBHOOKS_DEADLINE_MS: wholeNumber(10, 120_000)
      .default(30_000)
      .describe("a receiver must answer 2XX within this (v1's 30 s); default 30000"),
    V1_WEBHOOKS_BACKOFF_MS: wholeNumber(1, 3_600_000)
      .default(10_000)
      .describe('wait before the 2nd attempt, doubled before the 3rd; default 10000'),
    /** The same variable as the shared rate limits, described there once: one Redis for both. */
    REDIS_URL: RATE_LIMIT_SETTINGS.variables.REDIS_URL,
    V1_WEBHOOKS_REDIS_PREFIX: z
      .string()
      .min(1)
      .default('v1gate:webhooks')
      .describe(
        'with REDIS_URL: key prefix of the Redis Streams journal; gateways with the same prefix share the deliveries; default v1gate:webhooks',
      ),
    V1_WEBHOOKS_CLAIM_IDLE_MS: wholeNumber(50, 3_600_000)
      .default(60_000)
      .describe('with REDIS_URL: a process silent this long is taken as dead and its notifications claimed; default 60000'),
    V1_WEBHOOKS_DEDUPE_TTL_MS: wholeNumber(1_000, 30 * 86_400_000)
      .default(86_400_000)
      .describe(
        'how long a notification id is remembered (in Redis, or in the journal file: at most the last 10,000 delivered), so a v2 event delivered again, also after a restart, is not notified twice; and so how old an event may be and still be taken; default 86400000',
      ),
    V1_WEBHOOKS_CONSUMER: z
      .string()
      .min(1)
      .optional()
      .describe(
        "with REDIS_URL: this process's consumer name; a fixed one lets a restarted process take back its own pending notifications at once; default host and pid",
      ),
  },
  // Today's app page shows one token, the secret token: a value set under the old name is that token.
  aliases: { V2_WEBHOOK_TOKEN: 'V2_WEBHOOK_SECRET_TOKEN' },
  secret: ['V2_WEBHOOK_SECRET_TOKEN', 'V2_WEBHOOK_PREVIOUS_SECRET_TOKEN', 'REDIS_URL'],
  build(e, problem): WebhookConfig | undefined {
    if (e.V1_WEBHOOKS_FILE && !e.V2_WEBHOOK_SECRET_TOKEN) {
      problem('V2_WEBHOOK_SECRET_TOKEN', 'required when V1_WEBHOOKS_FILE is set');
      return undefined;
    }
    if (e.V2_WEBHOOK_PREVIOUS_SECRET_TOKEN && !e.V2_WEBHOOK_SECRET_TOKEN) {
      problem('V2_WEBHOOK_PREVIOUS_SECRET_TOKEN', 'needs V2_WEBHOOK_SECRET_TOKEN, the token it is rotated to');
      return undefined;
    }
    return {
      file: e.V1_WEBHOOKS_FILE,
      journalFile: e.V1_WEBHOOKS_JOURNAL,
      token: e.V2_WEBHOOK_SECRET_TOKEN,
      previousToken: e.V2_WEBHOOK_PREVIOUS_SECRET_TOKEN,
      maxAgeMs: e.V2_WEBHOOK_MAX_AGE_S * 1000,
      anyPort: e.V1_WEBHOOKS_ANY_PORT,
      deadlineMs: e.V1_WEBHOOKS_DEADLINE_MS,
      backoffMs: e.V1_WEBHOOKS_BACKOFF_MS,
      maxAttempts: 3,
      redis: {
        url: e.REDIS_URL,
        keyPrefix: e.V1_WEBHOOKS_REDIS_PREFIX,
        claimIdleMs: e.V1_WEBHOOKS_CLAIM_IDLE_MS,
        dedupeTtlMs: e.V1_WEBHOOKS_DEDUPE_TTL_MS,
        consumer: e.V1_WEBHOOKS_CONSUMER,
      },
    };
  },
});
