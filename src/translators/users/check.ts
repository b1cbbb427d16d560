import { V2 } from '../../v2-contract/v2-routes.js';
import { defineEndpoint } from '../kit/define.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { invalidParameter } from '../../v1/errors.js';

/** /user/checkemail → GET /users/email?email=: whether an email is taken. */
export const userCheckEmail = defineEndpoint({
  path: '/user/checkemail',
  params: v1Params({ email: v1.email() }),
  v2Calls: [V2.users.emailTaken],
  async handle({ email }, ctx) {
    const { existed_email } = await ctx.v2.get(V2.users.emailTaken.at(), { email });
    return { existed_email };
  },
});

/**
 * /user/checkzpk: refused, with no v2 call. Today's service has retired the ZPK: GET /users/zpk is
 * gone and GET /users/{userId}/token serves only `zak` and the deprecated `token`, so no ZPK
 * authenticates anyone any more and nothing in v2 says when one would have expired
 * (docs/decisions.md, "/user/checkzpk after the ZPK's retirement"). v1's invalid-parameter error
 * tells the client its zpk is no good, and where to go instead.
 */
const zpkRetired = () =>
  invalidParameter(
    'zpk',
    "The ZPK has been retired by the Zoom API and no longer authenticates a user: start meetings with the user's ZAK (the zak of /user/get).",
  );

export const userCheckZpk = defineEndpoint({
  path: '/user/checkzpk',
  params: v1Params({ zpk: v1.token() }),
  v2Calls: [],
  handle() {
    return Promise.reject(zpkRetired());
  },
});
