import { V1Code } from '../../v1/errors.js';
import { V2 } from '../../v2-contract/v2-routes.js';
import { V1Error } from '../../v1/errors.js';
import { defineEndpoint } from '../kit/define.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { idOrEmail, userId } from './user-params.js';
import { z } from 'zod';
import { answerWith, looseFields } from '../kit/answer-shape.js';

/**
 * Removing users. v1 `delete` took a user out of the account (v2 `disassociate`: the person keeps
 * a free account of their own); v1 `permanentdelete` erased them (v2 `delete`). A pending user
 * (v1 delete type 1) is an invitation: it is erased, so the email can be invited again.
 * The user is read first: the answers need its account or email, which v2 forgets on removal.
 * Without `type`, the user's own state says which: integrations create users with /user/create
 * (pending until they confirm) and delete them by id alone (docs/live-evidence.md, "Requests").
 * A `type` that does not fit the user is still refused: the caller said which kind it meant.
 */

/** v1 delete `type` → which users it may name, and what v2 does to them. */
const DELETE_TYPES = {
  0: { pending: false, action: 'disassociate', wrongKind: 'is a pending user: delete it with type 1' },
  1: { pending: true, action: 'delete', wrongKind: 'is not a pending user: delete it with type 0' },
} as const;

/** What /user/delete decides by and answers, which the v2 user leaves optional: its state and account. */
const STATE_AND_ACCOUNT = looseFields({ account_id: z.string(), status: z.string() });

export const userDelete = defineEndpoint({
  path: '/user/delete',
  params: v1Params({ id: userId(), type: v1.intOneOf([0, 1]).optional() }),
  v2Calls: [V2.users.get, V2.users.delete],
  async handle({ id, type }, ctx) {
    const user = answerWith(await ctx.v2.get(V2.users.get.at(id)), STATE_AND_ACCOUNT, V2.users.get);
    const kind = DELETE_TYPES[type ?? (user.status === 'pending' ? 1 : 0)];
    if ((user.status === 'pending') !== kind.pending) throw new V1Error(V1Code.userNotExist, `User not exist: ${id} ${kind.wrongKind}.`);
    await ctx.v2.delete(V2.users.delete.at(user.id), { action: kind.action });
    return { id, account_id: user.account_id, deleted_at: ctx.nowIso() };
  },
});

export const userPermanentDelete = defineEndpoint({
  path: '/user/permanentdelete',
  params: v1Params({ id: userId().optional(), email: v1.email().optional() }),
  v2Calls: [V2.users.get, V2.users.delete],
  async handle({ id, email }, ctx) {
    const user = await ctx.v2.get(V2.users.get.at(idOrEmail(id, email, 'email')));
    await ctx.v2.delete(V2.users.delete.at(user.id), { action: 'delete' });
    return { id: user.id, email: user.email, deleted_at: ctx.nowIso() };
  },
});
