import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * v1 push-notification subscriptions, per api_key, from the JSON file named by V1_WEBHOOKS_FILE.
 * Validated once at start: a bad file stops the process with a message naming the entry.
 */

export class SubscriptionsError extends Error {
  override readonly name = 'SubscriptionsError';
}

const SubscriptionSchema = z
  .object({
    api_key: z.string().min(1),
    /** The account whose v2 events this api_key hears; unset: any account (one-account set-ups). */
    account_id: z.string().min(1).optional(),
    url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
    username: z.string().optional(),
    password: z.string().optional(),
    format: z.enum(['status', 'type-content']).default('status'),
  })
  .strict()
  .refine((s) => (s.username === undefined) === (s.password === undefined), 'username and password go together');

export type Subscription = z.output<typeof SubscriptionSchema>;

/** v1 delivered only to the standard ports; other ports only when the operator allows them. */
export function portAllowed(url: string, anyPort: boolean): boolean {
  if (anyPort) return true;
  const u = new URL(url);
  return u.port === '' || u.port === '80' || u.port === '443';
}

export function parseSubscriptions(json: unknown, anyPort: boolean): Subscription[] {
  const result = z.array(SubscriptionSchema).safeParse(json);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  [${i.path.join('.')}]: ${i.message}`);
    throw new SubscriptionsError(`Invalid V1_WEBHOOKS_FILE:\n${lines.join('\n')}`);
  }
  for (const [index, sub] of result.data.entries()) {
    if (!portAllowed(sub.url, anyPort)) {
      throw new SubscriptionsError(
        `Invalid V1_WEBHOOKS_FILE:\n  [${index}.url]: v1 delivers to ports 80 and 443 only (set V1_WEBHOOKS_ANY_PORT=1 for local testing)`,
      );
    }
  }
  return result.data;
}

export function loadSubscriptions(file: string, anyPort: boolean): Subscription[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new SubscriptionsError(
      `V1_WEBHOOKS_FILE: ${file} cannot be read (${code === 'ENOENT' ? 'no such file' : (code ?? 'unreadable')})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text around the error: here, receivers' passwords.
    throw new SubscriptionsError(`V1_WEBHOOKS_FILE: ${file} is not valid JSON`);
  }
  return parseSubscriptions(json, anyPort);
}

/** The subscriptions that hear an event of this account. */
export function subscribersOf(subs: readonly Subscription[], accountId: string): Subscription[] {
  return subs.filter((s) => s.account_id === undefined || s.account_id === accountId);
}
