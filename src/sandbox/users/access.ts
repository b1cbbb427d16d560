import type { SandboxApp, SandboxContext } from '../context.js';
import { badRequest } from '../errors.js';
import type { Account } from '../model/account.js';
import type { User } from '../model/user.js';
import { readBody, readQuery } from '../validation.js';
import { pathUser } from './path.js';
import { passwordBody, statusBody, tokenQuery } from './schemas.js';
import { tokenAnswer, userToken } from './tokens.js';

/** What a user may do and sign in with: status, password, permissions, tokens. */

/**
 * Role privileges, named the way the service names them (brand names replaced by `Vendor`). The
 * owner holds the administrator's; a member's role carries no administrative privilege.
 */
const OWNER_PERMISSIONS = [
  'AccountProfile:Read',
  'AccountProfile:Edit',
  'AccountSetting:Read',
  'AccountSetting:Edit',
  'BillingSubscription:Read',
  'BillingSubscription:Edit',
  'BillingInvoice:Read',
  'User:Read',
  'User:Edit',
  'Group:Read',
  'Group:Edit',
  'IMGroup:Read',
  'IMGroup:Edit',
  'Recording:Read',
  'Recording:Edit',
  'Report:Read',
  'Dashboard:Read',
  'SubAccount:Read',
  'SubAccount:Edit',
  'VendorRooms:Read',
  'VendorRooms:Edit',
];

const permissionsOf = (account: Account, user: User) => (user.id === account.ownerId ? OWNER_PERMISSIONS : []);

/** The owner is the account: it can be neither deactivated nor removed from it. */
export function refuseForOwner(account: Account, user: User, what: string): void {
  if (user.id === account.ownerId) throw badRequest(`The account owner cannot be ${what}.`);
}

export function registerUserAccessRoutes(app: SandboxApp, { state }: SandboxContext): void {
  app.put('/users/:userId/status', async (c) => {
    const user = pathUser(c, state);
    const { action } = await readBody(c, statusBody);
    if (action === 'deactivate') {
      refuseForOwner(c.get('account'), user, 'deactivated');
      user.status = 'inactive';
    } else {
      // An admin may activate a pending user; the email stays unconfirmed (verified 0) until they confirm it.
      user.status = 'active';
    }
    return c.body(null, 204);
  });

  app.put('/users/:userId/password', async (c) => {
    const user = pathUser(c, state);
    user.password = (await readBody(c, passwordBody)).password;
    return c.body(null, 204);
  });

  app.get('/users/:userId/permissions', (c) => {
    return c.json({ permissions: permissionsOf(c.get('account'), pathUser(c, state)) });
  });

  app.get('/users/:userId/token', (c) => {
    const user = pathUser(c, state);
    const { type = 'token' } = readQuery(c, tokenQuery);
    return c.json({ token: tokenAnswer(state, c.get('account'), user, type) });
  });

  // Today's route for the caller's own ZAK (what a Meeting SDK page starting a meeting needs), answered
  // as the token route answers it: the one value, no expiry.
  app.get('/users/me/zak', (c) => c.json({ token: userToken(state, state.requireUser(c.get('account'), 'me'), 'zak') }));

  // Revokes the SSO token: the user must sign in through SSO again.
  app.delete('/users/:userId/token', (c) => {
    pathUser(c, state).tokens.sso_token = null;
    return c.body(null, 204);
  });
}
