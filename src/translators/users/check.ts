import { V2 } from '../../shared/v2-routes.js';
import { defineEndpoint } from '../kit/define.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { V2_EMAIL_EXISTS, V2_ZPK } from '../kit/v2-users.js';

/** /user/checkemail → GET /users/email?email=: whether an email is taken. */
export const userCheckEmail = defineEndpoint({
  path: '/user/checkemail',
  params: v1Params({ email: v1.email() }),
  v2Calls: [V2.users.emailTaken],
  async handle({ email }, ctx) {
    const { existed_email } = await ctx.v2.get(V2.users.emailTaken.at(), V2_EMAIL_EXISTS, { email });
    return { existed_email };
  },
});

/** /user/checkzpk → GET /users/zpk?zpk= (deprecated in v2, still served): seconds until it expires. */
export const userCheckZpk = defineEndpoint({
  path: '/user/checkzpk',
  params: v1Params({ zpk: v1.token() }),
  v2Calls: [V2.users.zpk],
  async handle({ zpk }, ctx) {
    const { expire_in } = await ctx.v2.get(V2.users.zpk.at(), V2_ZPK, { zpk });
    return { expire_in };
  },
});
