import { badRequest, conflict, V2Code } from '../errors.js';
import type { Account } from '../model/account.js';

/**
 * The billing preconditions the reference states for each plan and billing call ("can only
 * subscribe plans for the sub account which is a free account and paid by master account", "only
 * for the sub account which is a paid account and paid by master account"). A master account
 * cannot buy for an account that pays for itself (`pay_mode: sub`). Breaking one is a 400 with the
 * service's "invalid parameter" code and a message that says which rule, except a second
 * subscription: that would overwrite the plan set in place, which the v2 spec's status table calls
 * a 409 ("overwriting a resource"); changes to a paid plan go through PUT plans/base and plans/addons.
 */
export type PaidState = 'free' | 'paid' | 'any';

export function requirePaidByMaster(account: Account, needs: PaidState): void {
  if (account.options.pay_mode !== 'master') {
    throw badRequest(`Account ${account.id} pays for itself (pay_mode sub): the master account cannot manage its plans or billing.`);
  }
  if (needs === 'paid' && !account.plans) {
    throw badRequest(`Account ${account.id} is a free account: subscribe plans with POST /accounts/${account.id}/plans first.`);
  }
  if (needs === 'free' && account.plans) {
    throw conflict(
      V2Code.invalidParameter,
      `Account ${account.id} already has a paid plan: change it with PUT plans/base or plans/addons.`,
    );
  }
}
