import { defineEndpoint } from '../kit/define.js';
import { v1Params } from '../../v1/param-types.js';
import { accountIdParam } from './account-path.js';
import { V2 } from '../../v2-contract/v2-routes.js';

/**
 * /ma/account/delete → DELETE /accounts/{accountId}. v2 disassociates the account from the master
 * (it lives on, with its users); that is the nearest v2 has to v1's delete (docs/decisions.md).
 */
export const accountDelete = defineEndpoint({
  path: '/ma/account/delete',
  params: v1Params(accountIdParam),
  v2Calls: [V2.accounts.delete],
  async handle({ account_id }, ctx) {
    await ctx.v2.delete(V2.accounts.delete.at(account_id));
    return { id: account_id, deleted_at: ctx.nowIso() };
  },
});
