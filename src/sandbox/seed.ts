import { newAccount } from './accounts/factory.js';
import { opaqueId } from './ids.js';
import type { Account } from './model/account.js';
import type { SandboxState } from './state.js';
import { newUser } from './users/factory.js';

export interface MasterAccountInput {
  apiKey: string;
  apiSecret: string;
  ownerEmail: string;
  host: string;
}

/** Create the master account the sandbox starts with, and its owner (an active pro user). */
export function seedMasterAccount(state: SandboxState, input: MasterAccountInput): Account {
  const createdAt = state.nowIso();
  const accountId = opaqueId();
  const owner = newUser({
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
