import { newAccount } from './accounts/factory.js';
import { derivedId, opaqueId } from './ids.js';
import type { Account } from './model/account.js';
import type { SandboxState } from './state.js';
import { newUser } from './users/factory.js';

export interface MasterAccountInput {
  apiKey: string;
  apiSecret: string;
  ownerEmail: string;
  host: string;
  /**
   * The credentials an operator fixed (see `sandboxIdentity`): the account and its owner get the
   * same ids at every start, so a credential map naming the account keeps working after a restart.
   * Unset: random ids.
   */
  identity?: string;
}

/**
 * What the master account's ids are derived from: the credentials the operator fixed (whichever of
 * the v1 pair and the OAuth app were given), undefined when all are random. A fixed value changed
 * is another identity, as a new account would be.
 */
export function sandboxIdentity(
  fixed: Partial<Record<'apiKey' | 'apiSecret' | 'oauthClientId' | 'oauthClientSecret', string>>,
): string | undefined {
  const given = (['apiKey', 'apiSecret', 'oauthClientId', 'oauthClientSecret'] as const).filter((name) => fixed[name] !== undefined);
  return given.length === 0 ? undefined : JSON.stringify(given.map((name) => [name, fixed[name]]));
}

/** Create the master account the sandbox starts with, and its owner (an active pro user). */
export function seedMasterAccount(state: SandboxState, input: MasterAccountInput): Account {
  const createdAt = state.nowIso();
  const accountId = input.identity ? derivedId(input.identity, 'master account') : opaqueId();
  const fresh = newUser({
    accountId,
    email: input.ownerEmail,
    type: 2,
    firstName: 'Sandbox',
    lastName: 'Owner',
    createdBy: 'create',
    status: 'active',
    createdAt,
    host: input.host,
  });
  const owner = input.identity ? { ...fresh, id: derivedId(input.identity, 'master account owner') } : fresh;
  const account = newAccount({
    id: accountId,
    ownerId: owner.id,
    accountName: 'Sandbox Master Account',
    masterAccountId: null,
    createdAt,
    apiKey: input.apiKey,
    apiSecret: input.apiSecret,
  });
  state.addAccount(account);
  state.addUser(owner);
  return account;
}
