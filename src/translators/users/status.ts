import { V2 } from '../../v2-contract/v2-routes.js';
import { defineEndpoint } from '../kit/define.js';
import { v1Params } from '../../v1/param-types.js';
import { userId } from './user-params.js';

/** /user/activate and /user/deactivate: PUT /users/{userId}/status; the answer names the time of the change. */
function statusEndpoint(path: string, action: 'activate' | 'deactivate', timeField: 'activated_at' | 'deactivated_at') {
  return defineEndpoint({
    path,
    params: v1Params({ id: userId() }),
    v2Calls: [V2.users.setStatus],
    async handle({ id }, ctx) {
      await ctx.v2.put(V2.users.setStatus.at(id), { action });
      return { id, [timeField]: ctx.nowIso() };
    },
  });
}

export const userActivate = statusEndpoint('/user/activate', 'activate', 'activated_at');
export const userDeactivate = statusEndpoint('/user/deactivate', 'deactivate', 'deactivated_at');
