import { V2 } from '../../v2-contract/v2-routes.js';
import { defineEndpoint } from '../kit/define.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { userId } from './user-params.js';

/** /user/updatepassword → PUT /users/{userId}/password. v2 owns the password rules (length) and names the field when it refuses. */
export const userUpdatePassword = defineEndpoint({
  path: '/user/updatepassword',
  params: v1Params({ id: userId(), password: v1.string() }),
  v2Calls: [V2.users.setPassword],
  async handle({ id, password }, ctx) {
    await ctx.v2.put(V2.users.setPassword.at(id), { password });
    return { id, updated_at: ctx.nowIso() };
  },
});
