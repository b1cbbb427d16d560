import { BILLING_CONTACT_ROWS } from '../../../mappings/plans.js';
import { defineEndpoint } from '../kit/define.js';
import { inputShape, toV2 } from '../../v1/field-map.js';
import { v1Params } from '../../v1/param-types.js';
import { accountIdParam } from './account-path.js';
import { V2 } from '../../v2-contract/v2-routes.js';

/** /ma/account/billing/update → PATCH /accounts/{id}/billing with the contact fields given. */
export const accountBillingUpdate = defineEndpoint({
  path: '/ma/account/billing/update',
  params: v1Params({ ...inputShape(BILLING_CONTACT_ROWS), ...accountIdParam }),
  v2Calls: [V2.accounts.updateBilling],
  tables: [BILLING_CONTACT_ROWS],
  async handle(params, ctx) {
    await ctx.v2.patch(V2.accounts.updateBilling.at(params.account_id), toV2(BILLING_CONTACT_ROWS, params));
    return { id: params.account_id, updated_at: ctx.nowIso() };
  },
});
