import { v2path } from '../../shared/v2-path.js';
import type { TranslatorContext, V1Answer } from '../kit/define.js';
import { answer, type AnswerShape } from '../../v1/answer.js';
import { toV1, type FieldTable } from '../../v1/field-map.js';
import type { GroupKind } from './kind.js';
import { V2_USER_ACCOUNT } from '../kit/v2-users.js';

/**
 * v1 group answers carry the account id, v2 group objects do not. The caller's account is the
 * account of its owner: GET /users/me, made in parallel with the group calls the first time, then
 * remembered for the key and secret (an api_key never moves to another account; a 401 forgets it).
 */
export async function callerAccountId(ctx: TranslatorContext): Promise<string> {
  return ctx.memo.fact('account-id', async () => {
    const owner = await ctx.v2.get(v2path`/users/me`, V2_USER_ACCOUNT);
    return owner.account_id;
  });
}

export const CALLER_ACCOUNT_CALL = 'GET /users/{userId}';

/** A v2 group (or IM group) read through `table` → the v1 answer `shape` (`group_id`, `account_id`, then the table's fields). */
export function v1Group(table: FieldTable, shape: AnswerShape, v2Group: unknown, accountId: string): V1Answer {
  return answer(shape, toV1(table, v2Group), { account_id: accountId });
}

/** `/groups/{id}` or `/im/groups/{id}` plus `rest`, the id encoded as one segment. */
export function groupPath(kind: GroupKind, id: string, rest = ''): string {
  return `${kind.v2Base}${v2path`/${id}`}${rest}`;
}

/** The v2 path of a kind's group as the docs write it. */
export const docPath = (kind: GroupKind, rest = '') => `${kind.v2Base}/{groupId}${rest}`;
