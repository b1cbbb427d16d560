import { USER_OPTION_COMPOSITES } from '../../../mappings/user-options.js';
import { defineEndpoint } from '../kit/define.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { USER_ANSWERS } from '../../../mappings/user-answers.js';
import { readV1User, userReadCalls } from './user-output.js';
import { USER_V2_NAMING, tablesFor, userId } from './user-params.js';

/** /user/get: by id. */
export const userGet = defineEndpoint({
  path: '/user/get',
  params: v1Params({ id: userId() }),
  v2Calls: userReadCalls(USER_ANSWERS.get),
  tables: tablesFor({}, USER_ANSWERS.get.fields),
  composites: USER_OPTION_COMPOSITES,
  v2Naming: USER_V2_NAMING,
  handle: ({ id }, ctx) => readV1User(ctx.v2, id, USER_ANSWERS.get),
});

/** /user/getbyemail: v2 takes the email where it takes the id; login_type passes through. */
export const userGetByEmail = defineEndpoint({
  path: '/user/getbyemail',
  params: v1Params({ email: v1.email(), login_type: v1.intOneOf([0, 1, 99, 100, 101]).optional() }),
  v2Calls: userReadCalls(USER_ANSWERS.getbyemail),
  tables: tablesFor({}, USER_ANSWERS.getbyemail.fields),
  composites: USER_OPTION_COMPOSITES,
  v2Naming: USER_V2_NAMING,
  handle: ({ email, login_type }, ctx) => readV1User(ctx.v2, email, USER_ANSWERS.getbyemail, login_type),
});
