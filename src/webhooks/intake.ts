import { createHash } from 'node:crypto';
import pino, { type Logger } from 'pino';
import { Hono } from 'hono';
import { prefixOf } from '../shared/route-owners.js';
import { z } from 'zod';
import { bugBehind } from '../shared/failure.js';
import { BodyReadError, readBody } from '../http/request-body.js';
import { isBug } from '../translators/kit/failures.js';
import { encryptedToken, SIGNATURE_HEADER, TIMESTAMP_HEADER, URL_VALIDATION_EVENT } from '../v2-contract/webhook-signature.js';
import { v1StatusFor } from './events.js';
import { encodeNotification } from './notification.js';
import { receiverOf, Receivers } from './receivers.js';
import { subscribersOf, type Subscription } from './subscriptions.js';
import type { Dispatcher } from './dispatcher.js';
import { EventSignatures } from './signatures.js';

/**
 * POST /webhooks/v2: v2 events as the service sends them today, signed with the app's secret token
 * (signatures.ts decides what is believed, from the headers before the body is read). The URL
 * validation challenge is answered with the token that signed it; a known event is journaled once
 * per subscribed receiver before the 2XX; anything else is a 4xx and changes nothing.
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

const UrlValidationSchema = z.object({
  event: z.literal(URL_VALIDATION_EVENT),
  payload: z.object({ plainToken: z.string().min(1).max(256) }),
});

const SILENT = pino({ enabled: false });

type V2Event = z.infer<typeof V2EventSchema>;
type Answer = { status: 200 | 400 | 422 | 503; body: Record<string, unknown> };

function malformed(error: z.ZodError): Answer {
  return { status: 400, body: { error: 'malformed event', issues: error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) } };
}

export interface IntakeOptions {
  /** The secret token, and during a rotation the previous one. */
  secrets: readonly (string | undefined)[];
  /** How far ahead of now an event's timestamp may be (clocks differ). */
  maxAgeMs: number;
  /**
   * How long the journal remembers the notifications it took (its dedupe): an event dated up to
   * this far back is taken (the service's retry of one v1gate missed keeps its first timestamp, as
   * far as anyone has shown), since one already taken is known for at least as long.
   */
  rememberMs?: number;
  subscriptions: readonly Subscription[];
  dispatcher: Dispatcher;
  /** The gateway's logger (an unavailable journal); unset: nothing is written. */
  logger?: Logger;
  /** The clock event timestamps are judged by (default Date.now). */
  now?: () => number;
}

/** Journals one notification per subscribed receiver; only those not known already are counted. */
async function journalEvent(event: V2Event, options: IntakeOptions, receivers: Receivers): Promise<Answer> {
  const status = v1StatusFor(event.event);
  if (!status) return { status: 422, body: { error: `unsupported event ${event.event}` } };
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
      const added = await options.dispatcher.submit({
        id,
        // The subscription by reference and the receiver without its query: no credential is journaled.
        subscription: receivers.referenceOf(sub),
        url: receiverOf(sub.url),
        body: encodeNotification(notification, sub.format),
        attempts: 0,
        state: 'pending',
        createdAt: Date.now(),
      });
      if (added) queued++;
    }
  } catch (error) {
    // Not journaled: a 503 makes the v2 service retry, and the ids dedupe what did get in. The journal's
    // store (a file, Redis) fails with errors not of the family: nobody can tell them from a bug, so
    // they are logged as one, at error level, with the trace.
    const logger = options.logger ?? SILENT;
    if (isBug(error))
      logger.error({ err: bugBehind(error) }, 'webhook journal unavailable: the v2 event is refused (503) for v2 to send again');
    else logger.warn({ err: error }, 'webhook journal unavailable: the v2 event is refused (503) for v2 to send again');
    return { status: 503, body: { error: 'journal unavailable, retry later' } };
  }
  return { status: 200, body: { accepted: true, notifications: queued } };
}

/** What a verified body asks for: the validation challenge answered, or an event journaled. */
async function answerVerified(body: Buffer, secret: string, options: IntakeOptions, receivers: Receivers): Promise<Answer> {
  let raw: unknown;
  try {
    raw = JSON.parse(body.toString('utf8'));
  } catch {
    return { status: 400, body: { error: 'body must be JSON' } };
  }
  if ((raw as { event?: unknown } | null)?.event === URL_VALIDATION_EVENT) {
    const challenge = UrlValidationSchema.safeParse(raw);
    if (!challenge.success) return malformed(challenge.error);
    const { plainToken } = challenge.data.payload;
    return { status: 200, body: { plainToken, encryptedToken: encryptedToken(secret, plainToken) } };
  }
  const parsed = V2EventSchema.safeParse(raw);
  return parsed.success ? journalEvent(parsed.data, options, receivers) : malformed(parsed.error);
}

export function createWebhookIntake(options: IntakeOptions): Hono {
  const signatures = new EventSignatures(options.secrets, options.maxAgeMs, options.now ?? Date.now, options.rememberMs);
  const receivers = new Receivers(options.subscriptions);
  const app = new Hono();
  app.post(`${prefixOf('webhooks')}/v2`, async (c) => {
    const claim = signatures.claim(c.req.header(SIGNATURE_HEADER), c.req.header(TIMESTAMP_HEADER));
    if ('error' in claim) return c.json({ error: claim.error }, claim.status);
    let body: Buffer;
    try {
      body = await readBody(c);
    } catch (error) {
      if (error instanceof BodyReadError) return c.json({ error: error.message }, error.status);
      throw error;
    }
    const secret = signatures.signer(claim, body);
    if (!secret) return c.json({ error: 'invalid signature' }, 401);
    // The very same request again: the service's retry of an event whose 2XX it did not see, or a
    // replay. It was taken: 2XX, so the service stops sending it, and nobody is notified again.
    if (signatures.taken(claim)) return c.json({ accepted: true, notifications: 0 }, 200);
    const answer = await answerVerified(body, secret, options, receivers);
    // Remembered once answered 2XX: a 503 leaves the same request free to be sent again.
    if (answer.status === 200) signatures.remember(claim);
    return c.json(answer.body, answer.status);
  });

  // Operators (and `npm run webhooks -- list|replay`): the dead letters, behind the secret token.
  app.get(`${prefixOf('webhooks')}/dead-letters`, async (c) => {
    if (!signatures.isSecret(c.req.header('authorization'))) return c.json({ error: 'invalid secret token' }, 401);
    const dead = (await options.dispatcher.deadLetters()).map(({ authorization: _secret, ...job }) => job);
    return c.json({ dead_letters: dead });
  });
  app.post(`${prefixOf('webhooks')}/dead-letters/:id/replay`, async (c) => {
    if (!signatures.isSecret(c.req.header('authorization'))) return c.json({ error: 'invalid secret token' }, 401);
    const id = c.req.param('id');
    return (await options.dispatcher.replay(id)) ? c.json({ replayed: id }) : c.json({ error: `no dead letter ${id}` }, 404);
  });
  return app;
}
