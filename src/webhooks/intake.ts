import { createHash, timingSafeEqual } from 'node:crypto';
import pino, { type Logger } from 'pino';
import { Hono } from 'hono';
import { z } from 'zod';
import { BodyReadError, readBody } from '../shared/request-body.js';
import { v1StatusFor } from './events.js';
import { encodeNotification } from './notification.js';
import { subscribersOf, type Subscription } from './subscriptions.js';
import type { Dispatcher } from './dispatcher.js';

/**
 * POST /webhooks/v2: v2 events in the real service's format, authenticated by the app's
 * verification token (Authorization header, compared in constant time). A known event is
 * journaled once per subscribed receiver before the 2XX; anything else is a 4xx and changes nothing.
 */

const V2EventSchema = z.object({
  event: z.string().min(1),
  event_ts: z.number().int().nonnegative(),
  payload: z.object({
    account_id: z.string().min(1),
    object: z.object({
      id: z.union([z.string().min(1), z.number().int()]),
      uuid: z.string().min(1),
      host_id: z.string().min(1),
    }),
  }),
});

function sameToken(given: string, expected: string): boolean {
  // Hashing first gives equal lengths, so the comparison leaks neither content nor length.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

function basicAuth(sub: Subscription): string | undefined {
  if (sub.username === undefined || sub.password === undefined) return undefined;
  return `Basic ${Buffer.from(`${sub.username}:${sub.password}`).toString('base64')}`;
}

export function createWebhookIntake(options: {
  token: string;
  subscriptions: readonly Subscription[];
  dispatcher: Dispatcher;
  /** The gateway's logger (an unavailable journal); unset: nothing is written. */
  logger?: Logger;
}): Hono {
  const log = options.logger ?? pino({ enabled: false });
  const app = new Hono();
  app.post('/webhooks/v2', async (c) => {
    if (!sameToken(c.req.header('authorization') ?? '', options.token)) return c.json({ error: 'invalid verification token' }, 401);
    let raw: unknown;
    try {
      raw = JSON.parse((await readBody(c)).toString('utf8'));
    } catch (error) {
      if (error instanceof BodyReadError) return c.json({ error: error.message }, error.status);
      return c.json({ error: 'body must be JSON' }, 400);
    }
    const parsed = V2EventSchema.safeParse(raw);
    if (!parsed.success)
      return c.json({ error: 'malformed event', issues: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) }, 400);
    const event = parsed.data;
    const status = v1StatusFor(event.event);
    if (!status) return c.json({ error: `unsupported event ${event.event}` }, 422);
    const object = event.payload.object;
    const notification = { id: String(object.id), uuid: object.uuid, status, host_id: object.host_id };
    let queued = 0;
    try {
      for (const [index, sub] of subscribersOf(options.subscriptions, event.payload.account_id).entries()) {
        const id = createHash('sha256')
          .update(`${event.event}|${event.event_ts}|${object.uuid}|${sub.api_key}|${sub.url}|${index}`)
          .digest('hex')
          .slice(0, 24);
        // Awaited one by one: the 2XX below means every notification is journaled (fsynced, or acknowledged by Redis).
        await options.dispatcher.submit({
          id,
          url: sub.url,
          body: encodeNotification(notification, sub.format),
          authorization: basicAuth(sub),
          attempts: 0,
          state: 'pending',
          createdAt: Date.now(),
        });
        queued++;
      }
    } catch (error) {
      // Not journaled: a 503 makes the v2 service retry, and the ids dedupe what did get in.
      log.warn({ err: error }, 'webhook journal unavailable: the v2 event is refused (503) for v2 to send again');
      return c.json({ error: 'journal unavailable, retry later' }, 503);
    }
    return c.json({ accepted: true, notifications: queued }, 200);
  });

  // Operators (and `npm run webhooks -- list|replay`): the dead letters, behind the same token.
  app.get('/webhooks/dead-letters', async (c) => {
    if (!sameToken(c.req.header('authorization') ?? '', options.token)) return c.json({ error: 'invalid verification token' }, 401);
    const dead = (await options.dispatcher.deadLetters()).map(({ authorization: _secret, ...job }) => job);
    return c.json({ dead_letters: dead });
  });
  app.post('/webhooks/dead-letters/:id/replay', async (c) => {
    if (!sameToken(c.req.header('authorization') ?? '', options.token)) return c.json({ error: 'invalid verification token' }, 401);
    const id = c.req.param('id');
    return (await options.dispatcher.replay(id)) ? c.json({ replayed: id }) : c.json({ error: `no dead letter ${id}` }, 404);
  });
  return app;
}
