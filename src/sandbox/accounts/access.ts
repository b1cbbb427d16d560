import { notFound, SandboxError, V2Code } from '../errors.js';
import type { Account } from '../model/account.js';
import type { SandboxState } from '../state.js';

/**
 * Who may reach which account. Only a master account manages sub accounts; the service grants
 * that privilege to trusted partners, never to a sub account (or a former one), so those callers
 * get the service's "no privilege" code. The v2 spec's status table has no 403: like the real
 * service, we answer a missing privilege as 400 with code 200.
 */

export const accountNotFound = (id: string) =>
  notFound(V2Code.accountNotFound, `This account does not exist or does not belong to you: ${id}.`);

const noPrivilege = () =>
  new SandboxError(400, V2Code.noPrivilege, 'No privilege. Only a master account can manage sub accounts, plans and billing.');

export function requireMasterAccount(caller: Account): void {
  if (caller.masterAccountId !== null) throw noPrivilege();
}

/**
 * A sub account still associated with `caller`. Anything else (unknown id, another master's sub
 * account, a disassociated one) is 404 2001, so ids of other customers' accounts leak nothing.
 */
export function requireSubAccount(state: SandboxState, caller: Account, id: string): Account {
  requireMasterAccount(caller);
  const account = state.accounts.get(id);
  if (!account || account.masterAccountId !== caller.id || account.disassociated) throw accountNotFound(id);
  return account;
}

/**
 * The target of the settings, billing and plan endpoints: the caller itself (`me` or its own id,
 * so a standalone or sub account can read its own settings) or one of its sub accounts.
 */
export function requireManagedAccount(state: SandboxState, caller: Account, ref: string): Account {
  if (ref === 'me' || ref === caller.id) return caller;
  return requireSubAccount(state, caller, ref);
}

/**
 * The target of a plan or billing change. A master buys for itself and its sub accounts; a sub
 * account may read its own plans and billing but not change them, or it could buy on its
 * master's bill (and one that pays for itself is outside these endpoints altogether).
 */
export function requireBillingTarget(state: SandboxState, caller: Account, ref: string): Account {
  requireMasterAccount(caller);
  return requireManagedAccount(state, caller, ref);
}
