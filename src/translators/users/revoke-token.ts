import { v2path } from '../../shared/v2-path.js';
import { defineEndpoint } from '../kit/define.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { idOrEmail, userId } from './user-params.js';
import { V2_USER } from '../kit/v2-users.js';

/** /user/revoketoken: the SSO user's token (DELETE /users/{userId}/token); the user is read first for the answer's id and email. */
export const userRevokeToken = defineEndpoint({
  path: '/user/revoketoken',
  params: v1Params({ id: userId().optional(), email: v1.email().optional() }),
  v2Calls: ['GET /users/{userId}', 'DELETE /users/{userId}/token'],
  async handle({ id, email }, ctx) {
    const user = await ctx.v2.get(v2path`/users/${idOrEmail(id, email, 'email')}`, V2_USER);
    await ctx.v2.delete(v2path`/users/${user.id}/token`);
    return { id: user.id, email: user.email, updated_at: ctx.nowIso() };
  },
});
