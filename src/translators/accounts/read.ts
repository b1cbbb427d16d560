import { ACCOUNT_ANSWER, ACCOUNT_LIST_ITEM } from '../../../mappings/account-answers.js';
import { answer } from '../../v1/answer.js';
import { defineEndpoint } from '../kit/define.js';
import { pageOf, pagingOf, v1PageFields, v1PagingParams } from '../../v1/paging.js';
import { v1Params } from '../../v1/param-types.js';
import { accountIdParam } from './account-path.js';
import { v1PageOfTokens } from '../kit/token-walk.js';
import { V2 } from '../../v2-contract/v2-routes.js';

/** /ma/account/list → GET /accounts: v1's paging (optional, as v1 accepted it) and `subAccounts`. */
export const accountList = defineEndpoint({
  path: '/ma/account/list',
  params: v1Params(v1PagingParams),
  v2Calls: [V2.accounts.list],
  async handle(params, ctx) {
    const paging = pagingOf(params);
    const page = await v1PageOfTokens(ctx, { target: V2.accounts.list.at(), itemsOf: (p) => p.accounts }, paging);
    return {
      ...v1PageFields(pageOf(paging, page.total_records)),
      subAccounts: page.items.map((account) => answer(ACCOUNT_LIST_ITEM, account)),
    };
  },
});

/** /ma/account/get → GET /accounts/{accountId}: `id`, `owner_id`, `owner_email`, `created_at`. */
export const accountGet = defineEndpoint({
  path: '/ma/account/get',
  params: v1Params(accountIdParam),
  v2Calls: [V2.accounts.get],
  async handle({ account_id }, ctx) {
    const account = await ctx.v2.get(V2.accounts.get.at(account_id));
    return answer(ACCOUNT_ANSWER, account);
  },
});
