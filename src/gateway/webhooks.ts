import { Hono } from 'hono';
import type { PrivateAccess } from '../shared/private-access.js';
import { prefixOf } from '../shared/route-owners.js';
import { startWebhooks, type Webhooks } from '../webhooks/index.js';
import type { Parts } from './parts.js';

/** The v1 webhook part: the v2 event intake and its dead-letter routes. */

/**
 * The dead-letter routes ask for their own credential (the secret token); as private pages they
 * also want a loopback or PRIVATE_HOSTS Host and no forwarding but through TRUSTED_PROXIES.
 */
export function guardDeadLetters(app: Hono, access: PrivateAccess): void {
  const guard = access.guard({ kind: 'own-credential' });
  const deadLetters = `${prefixOf('webhooks')}/dead-letters`;
  app.use(deadLetters, guard);
  app.use(`${deadLetters}/*`, guard);
}

/** v1 webhooks: the v2 event intake at /webhooks/v2. A bad subscriptions file throws here, before anything listens or connects. */
export function webhooksPart({ config, overrides, resources, log, access }: Parts): { app: Hono; webhooks: Webhooks } | undefined {
  const webhooks = startWebhooks(config.webhooks, log.logger, overrides.webhookClock);
  if (!webhooks) return undefined;
  resources.add(() => webhooks.close());
  const app = new Hono();
  guardDeadLetters(app, access);
  app.route('/', webhooks.routes);
  return { app, webhooks };
}
