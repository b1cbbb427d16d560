import { V2 } from '../../v2-contract/v2-routes.js';
import type { TranslatorContext, V1Answer } from '../kit/define.js';
import { answer, type AnswerShape } from '../../v1/answer.js';
import { toV1, type FieldTable } from '../../v1/field-map.js';
import { z } from 'zod';
import { answerWith, looseFields } from '../kit/answer-shape.js';

/**
 * v1 group answers carry the account id, v2 group objects do not. The caller's account is the
 * account of its owner: GET /users/me, made in parallel with the group calls the first time, then
 * remembered for the key and secret (an api_key never moves to another account; a 401 forgets it).
 */
export async function callerAccountId(ctx: TranslatorContext<typeof CALLER_ACCOUNT_CALL>): Promise<string> {
  return ctx.memo.fact('account-id', async () => {
    const owner = answerWith(await ctx.v2.get(V2.users.get.at('me')), OWNER_ACCOUNT, CALLER_ACCOUNT_CALL);
    return owner.account_id;
  });
}

/** What a group answer cannot do without, and the v2 user leaves optional: the caller's account. */
const OWNER_ACCOUNT = looseFields({ account_id: z.string() });

/** The route callerAccountId calls. */
export const CALLER_ACCOUNT_CALL = V2.users.get;

/** A v2 group (or IM group) read through `table` → the v1 answer `shape` (`group_id`, `account_id`, then the table's fields). */
export function v1Group(table: FieldTable, shape: AnswerShape, v2Group: unknown, accountId: string): V1Answer {
  return answer(shape, toV1(table, v2Group), { account_id: accountId });
}
