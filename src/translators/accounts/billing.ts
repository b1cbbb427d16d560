import { BILLING_CONTACT_ROWS } from '../../../mappings/plans.js';
import { defineEndpoint } from '../kit/define.js';
import { inputShape, toV2 } from '../../v1/field-map.js';
import { v1Params } from '../../v1/param-types.js';
import { accountIdParam, accountPath } from './account-path.js';

/** /ma/account/billing/update → PATCH /accounts/{id}/billing with the contact fields given. */
export const accountBillingUpdate = defineEndpoint({
  path: '/ma/account/billing/update',
  params: v1Params({ ...inputShape(BILLING_CONTACT_ROWS), ...accountIdParam }),
  v2Calls: ['PATCH /accounts/{accountId}/billing'],
  tables: [BILLING_CONTACT_ROWS],
  async handle(params, ctx) {
    await ctx.v2.patch(accountPath(params.account_id, '/billing'), toV2(BILLING_CONTACT_ROWS, params));
    return { id: params.account_id, updated_at: ctx.nowIso() };
  },
});
