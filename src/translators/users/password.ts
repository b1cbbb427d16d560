import { v2path } from '../../shared/v2-path.js';
import { defineEndpoint } from '../kit/define.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { userId } from './user-params.js';

/** /user/updatepassword → PUT /users/{userId}/password. v2 owns the password rules (length) and names the field when it refuses. */
export const userUpdatePassword = defineEndpoint({
  path: '/user/updatepassword',
  params: v1Params({ id: userId(), password: v1.string() }),
  v2Calls: ['PUT /users/{userId}/password'],
  async handle({ id, password }, ctx) {
    await ctx.v2.put(v2path`/users/${id}/password`, { password });
    return { id, updated_at: ctx.nowIso() };
  },
});
