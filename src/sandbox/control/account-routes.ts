import { z } from 'zod';
import type { Hono } from 'hono';
import { PrivateAccess } from '../../shared/private-access.js';
import type { SandboxContext } from '../context.js';
import { conflict, invalidField, userNotFound } from '../errors.js';
import { isoSeconds } from '../clock.js';
import { opaqueId } from '../ids.js';
import type { Account } from '../model/account.js';
import type { ChatSession } from '../model/chat.js';
import type { OAuthApp } from '../oauth/apps.js';
import { RATE_LIMIT_PLANS } from '../rate-limit.js';
import { dateTime, readBody } from '../validation.js';

/** A scope as the service spells one: `meeting:write:meeting:admin`, `user:read:admin`. */
const scopeName = z.string().regex(/^[a-z_]+(:[a-z_]+)+$/, 'A scope is words of a-z and _ joined by colons.');

const oauthAppBody = z.object({
  name: z.string().min(1).max(128).default('Server-to-server app'),
  /** Granular or classic; without it, the app may call every operation. */
  scopes: z.array(scopeName).min(1).max(1000).optional(),
});

function renderOAuthApp(app: OAuthApp) {
  return {
    client_id: app.clientId,
    client_secret: app.clientSecret,
    account_id: app.accountId,
    name: app.name,
    created_at: app.createdAt,
    ...(app.scopes ? { scopes: app.scopes } : {}),
  };
}

const chatSessionBody = z.object({
  type: z.enum(['Group', '1:1']).default('Group'),
  name: z.string().max(128).default(''),
  members: z.array(z.email()).max(1000).optional(),
  messages: z
    .array(z.object({ message: z.string().min(1).max(4096), sender: z.email(), date_time: dateTime.optional() }))
    .min(1)
    .max(1000),
});

const rateLimitPlanBody = z.object({ plan: z.enum(RATE_LIMIT_PLANS) });

const imGroupsBody = z.strictObject({ available: z.boolean('Must be a boolean.') });

/** Account {id} of a control route's path; a v2 validation error naming `id` when there is none. */
function accountOf(state: SandboxContext['state'], id: string): Account {
  const account = state.accounts.get(id);
  if (!account) throw invalidField('id', `No account ${id}.`);
  return account;
}

const SECRETS_LEFT_OUT = 'api_secret and client_secret are listed only to a request from this machine (loopback, no proxy, Host localhost)';

/** The control routes about accounts and users (see routes.ts for the list). */
export function registerAccountControlRoutes(app: Hono, { state }: SandboxContext): void {
  /**
   * The secrets (api_secret, an app's client_secret) only to a request from this machine's own
   * terminal, whom the start-up banner shows them to: a loopback socket, no proxy, a loopback Host.
   * Through a proxy, to another machine (SANDBOX_PUBLIC=1) or a page by DNS rebinding, they are left out.
   */
  app.get('/accounts', (c) => {
    const withSecrets = PrivateAccess.strictlyLocal(c);
    const accounts = [...state.accounts.values()].map((account) => ({
      id: account.id,
      account_name: account.account_name,
      account_type: account.account_type,
      owner_email: state.users.get(account.ownerId)?.email ?? '',
      master_account_id: account.masterAccountId,
      disassociated: account.disassociated,
      api_key: account.apiKey,
      // A gateway that reaches this sandbox by its list (a cluster worker) sizes the account's v2
      // budgets by it, as one that embeds the sandbox does (oauth/embedded.ts): set, not defaulted.
      ...(account.rateLimitPlan ? { rate_limit_plan: account.rateLimitPlan } : {}),
      ...(withSecrets ? { api_secret: account.apiSecret } : {}),
      oauth_apps: state.oauthApps.ofAccount(account.id).map((app) => {
        const { client_secret: secret, ...rest } = renderOAuthApp(app);
        return withSecrets ? { ...rest, client_secret: secret } : rest;
      }),
    }));
    return c.json({ total_records: accounts.length, accounts, ...(withSecrets ? {} : { secrets: SECRETS_LEFT_OUT }) }, 200, {
      'cache-control': 'no-store',
    });
  });

  /** A new server-to-server OAuth app of account {id}: its client id and secret trade for tokens at /oauth/token. */
  app.post('/accounts/:id/oauth-apps', async (c) => {
    const account = accountOf(state, c.req.param('id'));
    const body = await readBody(c, oauthAppBody);
    const created = state.oauthApps.add({
      accountId: account.id,
      name: body.name,
      createdAt: state.nowIso(),
      ...(body.scopes ? { scopes: [...new Set(body.scopes)] } : {}),
    });
    return c.json(renderOAuthApp(created), 201);
  });

  registerAccountSwitches(app, state);

  /** Every access token app {clientId} was given ends now: its next v2 call answers 401, as after a secret rotation. */
  app.post('/oauth-apps/:clientId/revoke-tokens', (c) => {
    const clientId = c.req.param('clientId');
    if (state.oauthApps.accountOf(clientId) === undefined) throw invalidField('clientId', `No OAuth app ${clientId}.`);
    return c.json({ client_id: clientId, revoked: state.oauthApps.revokeTokensOf(clientId) });
  });

  /**
   * Chat history, as people chatting would make it: a session of account {id} (`type` Group or 1:1,
   * the group's `name`) with its messages (`sender` an email, `date_time` now by default).
   */
  app.post('/accounts/:id/chat-sessions', async (c) => {
    const account = accountOf(state, c.req.param('id'));
    const body = await readBody(c, chatSessionBody);
    const session: ChatSession = {
      session_id: opaqueId(),
      account_id: account.id,
      type: body.type,
      name: body.type === 'Group' ? body.name : '',
      ...(body.members ? { members: body.members } : {}),
      messages: body.messages
        .map((m) => ({
          message: m.message,
          sender: m.sender,
          date_time: m.date_time ? isoSeconds(new Date(m.date_time.endsWith('Z') ? m.date_time : `${m.date_time}Z`)) : state.nowIso(),
        }))
        .sort((a, b) => a.date_time.localeCompare(b.date_time)),
    };
    state.chatSessions.set(session.session_id, session);
    return c.json(session, 201);
  });

  /** What the link of the confirmation email does: a pending user (POST /v2/users, action create) becomes active. */
  app.post('/users/:id/activate', (c) => {
    const ref = c.req.param('id');
    const user = state.users.get(ref) ?? state.usersByEmail.get(ref.toLowerCase());
    if (!user) throw userNotFound(ref);
    if (user.status !== 'pending') throw conflict(409, `User ${ref} is not pending activation: its status is ${user.status}.`);
    user.status = 'active';
    user.verified = 1;
    return c.json({ id: user.id, email: user.email, status: user.status });
  });
}

/** What the service's account settings and support switch per account: its rate-limit plan, the IM Group APIs. */
function registerAccountSwitches(app: Hono, state: SandboxContext['state']): void {
  /** The plan whose v2 rate limits account {id} is held to (src/sandbox/rate-limit.ts): `pro` or `business`. */
  app.put('/accounts/:id/rate-limit-plan', async (c) => {
    const account = accountOf(state, c.req.param('id'));
    const body = await readBody(c, rateLimitPlanBody);
    account.rateLimitPlan = body.plan;
    return c.json({ account_id: account.id, plan: body.plan });
  });

  /**
   * Whether account {id} may still use the IM Group APIs: `{"available": false}` retires them, and
   * every `/v2/im/groups` route then answers 410 with code 4137, as the service does for an account
   * they are gone for; `true` brings them back with the groups as they were.
   */
  app.put('/accounts/:id/im-groups', async (c) => {
    const account = accountOf(state, c.req.param('id'));
    const body = await readBody(c, imGroupsBody);
    account.imGroupsRetired = !body.available;
    return c.json({ account_id: account.id, available: body.available });
  });
}
