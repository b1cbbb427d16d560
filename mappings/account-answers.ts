import type { AnswerShape } from '../src/v1/answer.js';

/** The v1 answers of the sub-account calls; v2 accounts carry the same field names. */

/** An item of /ma/account/list's `subAccounts`. */
export const ACCOUNT_LIST_ITEM: AnswerShape = {
  fields: ['id', 'owner_email', 'account_name', 'account_type', 'seats', 'subscription_start_time', 'subscription_end_time', 'created_at'],
};

/** /ma/account/get and /ma/account/create. */
export const ACCOUNT_ANSWER: AnswerShape = { fields: ['id', 'owner_id', 'owner_email', 'created_at'] };
