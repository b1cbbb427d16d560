import type { z } from 'zod';
import type { SandboxContext } from '../context.js';
import { conflict, V2Code } from '../errors.js';
import type { Account } from '../model/account.js';
import type { CreateAction, User, UserStatus } from '../model/user.js';
import { newUser } from './factory.js';
import type { createUserBody } from './schemas.js';
import { emailTaken, freePmi, ssoVanityName } from './uniqueness.js';

/**
 * `create` sends a confirmation email and the user stays pending (verified 0) until they confirm;
 * the other actions provision a user who is active at once.
 */
const STATUS_AFTER: Record<CreateAction, UserStatus> = {
  create: 'pending',
  autoCreate: 'active',
  custCreate: 'active',
  ssoCreate: 'active',
};

/** POST /users: a new user of `account`, or 409 1005 when the email is taken anywhere in the service. */
export function createUser(ctx: SandboxContext, account: Account, body: z.output<typeof createUserBody>): User {
  const { state } = ctx;
  const { action, user_info: info } = body;
  if (emailTaken(state, info.email)) throw conflict(V2Code.userAlreadyExists, `User already in the account: ${info.email}`);
  const user = newUser({
    accountId: account.id,
    email: info.email,
    type: info.type,
    firstName: info.first_name,
    lastName: info.last_name,
    password: info.password ?? null,
    createdBy: action,
    status: STATUS_AFTER[action],
    createdAt: state.nowIso(),
    pmi: freePmi(state),
    vanityName: action === 'ssoCreate' && info.type !== 1 ? ssoVanityName(state, info.email) : null,
    host: ctx.publicUrl,
  });
  state.addUser(user);
  return user;
}
