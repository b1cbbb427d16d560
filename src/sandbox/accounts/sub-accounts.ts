import { z } from 'zod';
import type { SandboxApp, SandboxContext } from '../context.js';
import { conflict, V2Code } from '../errors.js';
import { opaqueId } from '../ids.js';
import type { Account } from '../model/account.js';
import { pageBody, paginate } from '../paging.js';
import type { SandboxState } from '../state.js';
import { newUser } from '../users/factory.js';
import { userEmail, userName, userPassword } from '../users/schemas.js';
import { emailTaken, freePmi } from '../users/uniqueness.js';
import { readBody } from '../validation.js';
import { requireMasterAccount, requireSubAccount } from './access.js';
import { newAccount } from './factory.js';

/**
 * Bodies here are strict, as in the other areas: an unknown field is a 400 naming it, so a
 * misspelt field is caught rather than silently dropped.
 */

/** The options object: the body of PATCH /accounts/{id}/options and `options` of POST /accounts. */
const optionsSchema = z
  .strictObject({
    share_rc: z.boolean('Must be a boolean.'),
    room_connectors: z.string('Must be a string.'),
    share_mc: z.boolean('Must be a boolean.'),
    meeting_connectors: z.string('Must be a string.'),
    pay_mode: z.enum(['master', 'sub'], 'Must be master or sub.'),
  })
  .partial();

/** The owner is a user like any other: the users area's field rules apply to it unchanged. */
const createSchema = z.strictObject({
  first_name: userName,
  last_name: userName,
  email: userEmail,
  password: userPassword,
  options: optionsSchema.optional(),
});

/** Sub accounts: list, create, read, disassociate, options. */
export function registerSubAccountRoutes(app: SandboxApp, { state, publicUrl }: SandboxContext): void {
  app.get('/accounts', (c) => {
    const caller = c.get('account');
    requireMasterAccount(caller);
    const page = paginate(c, state.pages, `accounts:${caller.id}`, state.subAccountsOf(caller));
    return c.json(pageBody({ ...page, items: page.items.map((a) => listItem(state, a)) }, 'accounts'));
  });

  app.post('/accounts', async (c) => {
    const caller = c.get('account');
    requireMasterAccount(caller);
    const body = await readBody(c, createSchema);
    // Emails are unique across the whole service: the owner of a sub account is a user like any other.
    if (emailTaken(state, body.email)) {
      throw conflict(V2Code.userAlreadyExists, `User already in the account: ${body.email}`);
    }
    const createdAt = state.nowIso();
    const accountId = opaqueId();
    // The new account starts free (plans are subscribed later), so its owner is a basic user.
    const owner = newUser({
      accountId,
      email: body.email,
      type: 1,
      firstName: body.first_name,
      lastName: body.last_name,
      password: body.password,
      createdBy: 'create',
      status: 'active',
      createdAt,
      pmi: freePmi(state),
      host: publicUrl,
    });
    const account = newAccount({
      id: accountId,
      ownerId: owner.id,
      accountName: `${body.first_name} ${body.last_name}`.trim() || body.email,
      masterAccountId: caller.id,
      createdAt,
    });
    Object.assign(account.options, body.options);
    state.addAccount(account);
    state.addUser(owner);
    return c.json({ id: account.id, owner_id: owner.id, owner_email: owner.email, created_at: account.created_at }, 201);
  });

  app.get('/accounts/:accountId', (c) => {
    const account = requireSubAccount(state, c.get('account'), c.req.param('accountId'));
    return c.json({
      id: account.id,
      owner_id: account.ownerId,
      owner_email: ownerEmail(state, account),
      created_at: account.created_at,
      options: { ...account.options },
    });
  });

  // Disassociation: the account, its users and its credentials live on; only the link to the master goes.
  app.delete('/accounts/:accountId', (c) => {
    const account = requireSubAccount(state, c.get('account'), c.req.param('accountId'));
    account.disassociated = true;
    return c.body(null, 204);
  });

  app.patch('/accounts/:accountId/options', async (c) => {
    const account = requireSubAccount(state, c.get('account'), c.req.param('accountId'));
    const options = await readBody(c, optionsSchema, { allowEmpty: true });
    Object.assign(account.options, options);
    return c.body(null, 204);
  });
}

function listItem(state: SandboxState, account: Account) {
  return {
    id: account.id,
    account_name: account.account_name,
    owner_email: ownerEmail(state, account),
    account_type: account.account_type,
    seats: account.seats,
    subscription_start_time: account.subscription_start_time,
    subscription_end_time: account.subscription_end_time,
    created_at: account.created_at,
  };
}

function ownerEmail(state: SandboxState, account: Account): string {
  return state.users.get(account.ownerId)?.email ?? '';
}
