import { z } from 'zod';
import { onOff, wholeNumber } from '../shared/env.js';

/** V1 webhook settings from the environment; unset V1_WEBHOOKS_FILE: webhooks off. */
export interface WebhookConfig {
  file: string | undefined;
  journalFile: string;
  token: string | undefined;
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

const Schema = z.object({
  V1_WEBHOOKS_FILE: z.string().min(1).optional(),
  V1_WEBHOOKS_JOURNAL: z.string().min(1).default('data/webhooks.journal'),
  V2_WEBHOOK_TOKEN: z.string().min(8, 'must be at least 8 characters').optional(),
  V1_WEBHOOKS_ANY_PORT: onOff.default(false),
  /** v1's 30 s; tests scale it down. */
  V1_WEBHOOKS_DEADLINE_MS: wholeNumber(10, 120_000).default(30_000),
  V1_WEBHOOKS_BACKOFF_MS: wholeNumber(1, 3_600_000).default(10_000),
  /** The same variable as the shared rate limits: one Redis for both. */
  REDIS_URL: z.string().trim().optional(),
  V1_WEBHOOKS_REDIS_PREFIX: z.string().min(1).default('v1gate:webhooks'),
  /** A pending job untouched this long belongs to a dead process and is taken over; tests scale it down. */
  V1_WEBHOOKS_CLAIM_IDLE_MS: wholeNumber(50, 3_600_000).default(60_000),
  V1_WEBHOOKS_DEDUPE_TTL_MS: wholeNumber(1_000, 30 * 86_400_000).default(86_400_000),
  V1_WEBHOOKS_CONSUMER: z.string().min(1).optional(),
});

export function readWebhookConfig(env: Record<string, string | undefined>): WebhookConfig {
  const result = Schema.safeParse(env);
  if (!result.success) throw new Error(result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  const e = result.data;
  if (e.V1_WEBHOOKS_FILE && !e.V2_WEBHOOK_TOKEN) throw new Error('V2_WEBHOOK_TOKEN: required when V1_WEBHOOKS_FILE is set');
  return {
    file: e.V1_WEBHOOKS_FILE,
    journalFile: e.V1_WEBHOOKS_JOURNAL,
    token: e.V2_WEBHOOK_TOKEN,
    anyPort: e.V1_WEBHOOKS_ANY_PORT,
    deadlineMs: e.V1_WEBHOOKS_DEADLINE_MS,
    backoffMs: e.V1_WEBHOOKS_BACKOFF_MS,
    maxAttempts: 3,
    redis: {
      url: e.REDIS_URL || undefined,
      keyPrefix: e.V1_WEBHOOKS_REDIS_PREFIX,
      claimIdleMs: e.V1_WEBHOOKS_CLAIM_IDLE_MS,
      dedupeTtlMs: e.V1_WEBHOOKS_DEDUPE_TTL_MS,
      consumer: e.V1_WEBHOOKS_CONSUMER,
    },
  };
}
