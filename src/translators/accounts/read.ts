import { ACCOUNT_ANSWER, ACCOUNT_LIST_ITEM } from '../../../mappings/account-answers.js';
import { answer } from '../../v1/answer.js';
import { defineEndpoint } from '../kit/define.js';
import { pagingOf, v1PageFields, v1PagingParams, type V1Page } from '../../v1/paging.js';
import { v1Params } from '../../v1/param-types.js';
import { accountIdParam, accountPath } from './account-path.js';

/** /ma/account/list → GET /accounts: v1's paging (optional, as v1 accepted it) and `subAccounts`. */
export const accountList = defineEndpoint({
  path: '/ma/account/list',
  params: v1Params(v1PagingParams),
  v2Calls: ['GET /accounts'],
  async handle(params, ctx) {
    const page = await ctx.v2.get<V1Page & { accounts: Record<string, unknown>[] }>('/accounts', pagingOf(params));
    return { ...v1PageFields(page), subAccounts: page.accounts.map((account) => answer(ACCOUNT_LIST_ITEM, account)) };
  },
});

/** /ma/account/get → GET /accounts/{accountId}: `id`, `owner_id`, `owner_email`, `created_at`. */
export const accountGet = defineEndpoint({
  path: '/ma/account/get',
  params: v1Params(accountIdParam),
  v2Calls: ['GET /accounts/{accountId}'],
  async handle({ account_id }, ctx) {
    const account = await ctx.v2.get<Record<string, unknown>>(accountPath(account_id));
    return answer(ACCOUNT_ANSWER, account);
  },
});
