import type { SandboxApp, SandboxContext } from '../context.js';
import { notFound, V2Code } from '../errors.js';
import { readQuery } from '../validation.js';
import { emailLookupQuery, vanityLookupQuery, zpkLookupQuery } from './schemas.js';
import { userWithZpk, zpkExpiresIn } from './tokens.js';
import { emailTaken, userWithVanityName } from './uniqueness.js';

/**
 * The fixed paths under /users. They must be registered before `/users/{userId}`, which would
 * otherwise read `email`, `zpk` and `vanity_name` as user ids. Emails and room names are unique
 * across the service, so these look beyond the caller's account.
 */
export function registerUserLookupRoutes(app: SandboxApp, { state }: SandboxContext): void {
  app.get('/users/email', (c) => {
    const { email } = readQuery(c, emailLookupQuery);
    return c.json({ existed_email: emailTaken(state, email) });
  });

  app.get('/users/vanity_name', (c) => {
    const { vanity_name } = readQuery(c, vanityLookupQuery);
    return c.json({ existed: userWithVanityName(state, vanity_name) !== undefined });
  });

  // Deprecated. A zpk authenticates a user of the caller's account, so one that names nobody there
  // answers like an unknown user (404 1001); a known one that expired answers expire_in 0.
  app.get('/users/zpk', (c) => {
    const { zpk } = readQuery(c, zpkLookupQuery);
    const user = userWithZpk(state, zpk);
    if (!user || user.account_id !== c.get('account').id)
      throw notFound(V2Code.userNotExist, 'User does not exist: no user holds this zpk.');
    return c.json({ expire_in: zpkExpiresIn(state, user) });
  });
}
