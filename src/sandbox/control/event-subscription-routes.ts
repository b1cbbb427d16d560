import { z } from 'zod';
import type { Hono } from 'hono';
import type { SandboxContext } from '../context.js';
import { invalidField, notFound } from '../errors.js';
import { check, readJsonObject } from '../validation.js';

const subscriptionBody = z
  .object({
    url: z.string().refine((url) => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol), 'Must be an http(s) URL.'),
    /** The app's secret token; `token` is the name this route had when it took the verification token. */
    secret_token: z.string().min(1).max(256).optional(),
    token: z.string().min(1).max(256).optional(),
    auth: z.enum(['signature', 'verification-token']).default('signature'),
    /** Multiplies the service's retry schedule (5, 20, 60 minutes): tests shorten it; default 1. */
    retry_scale: z.number().positive().max(1).default(1),
    /** Sent in `clientid`; default the account's first server-to-server app's. */
    client_id: z.string().min(1).max(256).optional(),
  })
  .refine((body) => body.secret_token ?? body.token, { path: ['secret_token'], message: "Must be the app's secret token." });

/**
 * The v2 app's event subscriptions (see routes.ts and README.md): where the sandbox sends an
 * account's events, signed with which secret token, and whether the endpoint passed the service's
 * URL validation challenge, asked again on demand.
 */
export function registerEventSubscriptionControlRoutes(app: Hono, { state }: SandboxContext): void {
  app.put('/accounts/:id/event-subscription', async (c) => {
    const accountId = c.req.param('id');
    if (accountId !== '*' && !state.accounts.has(accountId)) throw invalidField('id', `No account ${accountId}.`);
    const body = check(subscriptionBody, await readJsonObject(c));
    const clientId = body.client_id ?? (accountId === '*' ? undefined : state.oauthApps.ofAccount(accountId)[0]?.clientId);
    state.events.subscribe(accountId, {
      url: body.url,
      token: (body.secret_token ?? body.token)!,
      auth: body.auth,
      retryScale: body.retry_scale,
      ...(clientId ? { clientId } : {}),
    });
    return c.json(await state.events.settled(accountId));
  });

  app.post('/accounts/:id/event-subscription/validate', async (c) => {
    const view = await state.events.validate(c.req.param('id'));
    if (!view) throw notFound(404, `No event subscription of account ${c.req.param('id')}.`);
    return c.json(view);
  });

  app.get('/event-subscriptions', (c) => c.json({ subscriptions: state.events.list() }));
}
