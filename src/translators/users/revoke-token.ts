import { V2 } from '../../v2-contract/v2-routes.js';
import { defineEndpoint } from '../kit/define.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { idOrEmail, userId } from './user-params.js';

/** /user/revoketoken: the SSO user's token (DELETE /users/{userId}/token); the user is read first for the answer's id and email. */
export const userRevokeToken = defineEndpoint({
  path: '/user/revoketoken',
  params: v1Params({ id: userId().optional(), email: v1.email().optional() }),
  v2Calls: [V2.users.get, V2.users.revokeToken],
  async handle({ id, email }, ctx) {
    const user = await ctx.v2.get(V2.users.get.at(idOrEmail(id, email, 'email')));
    await ctx.v2.delete(V2.users.revokeToken.at(user.id));
    return { id: user.id, email: user.email, updated_at: ctx.nowIso() };
  },
});
