import { USER_FIELDS } from '../../../mappings/user-fields.js';
import { USER_OPTIONS, USER_OPTION_COMPOSITES } from '../../../mappings/user-options.js';
import { V2 } from '../../shared/v2-routes.js';
import { defineEndpoint } from '../kit/define.js';
import { toV1, withCompositeDefaults, withV1Defaults } from '../../v1/field-map.js';
import { v1Params } from '../../v1/param-types.js';
import { pageOf, pagingOf, v1PageFields, v1PagingParams } from '../../v1/paging.js';
import { USER_ANSWERS } from '../../../mappings/user-answers.js';
import { answer } from '../../v1/answer.js';
import { V2_USER_PAGE } from '../kit/v2-users.js';

/**
 * /user/list and /user/pending: one GET /users page each (status active or pending), paged as
 * the v1 call asks. A v2 list item carries no settings, picture or verification, and fetching
 * them per user would cost two more v2 calls per user (up to 600 for a page of 300, a minute of
 * the key's v2 budget), so the items show what is known without them: the v1 defaults of the
 * option set, an empty pic_url, verified from the status, and empty tokens (as v1's own list
 * items showed them). /user/get gives the full user. See docs/decisions.md.
 */

type ListStatus = 'active' | 'pending';

/** What a list item shows where the v2 list is silent. */
const ASSUMED_IN_LIST: Record<string, unknown> = {
  ...withCompositeDefaults(USER_OPTION_COMPOSITES, withV1Defaults(USER_OPTIONS, {})),
  pic_url: '',
  token: '',
  zpk: '',
  zak: '',
};

/** A pending user has not confirmed their email; the others have (an activated pending user is the exception v2's list cannot show). */
const VERIFIED: Record<ListStatus, 0 | 1> = { active: 1, pending: 0 };

function listEndpoint(path: string, status: ListStatus) {
  return defineEndpoint({
    path,
    params: v1Params(v1PagingParams),
    v2Calls: [V2.users.list],
    // Only the user-object rows are read from v2; the option fields of an item are v1 defaults (above).
    tables: [USER_FIELDS.filter((row) => (USER_ANSWERS.listItem.fields as readonly string[]).includes(row.v1))],
    async handle(params, ctx) {
      const paging = pagingOf(params);
      const page = await ctx.v2.get(V2.users.list.at(), V2_USER_PAGE, { status, ...paging });
      return {
        ...v1PageFields(pageOf(paging, page.total_records), 'total second'),
        users: page.users.map((user) =>
          answer(USER_ANSWERS.listItem, toV1(USER_FIELDS, { ...user, status }), { verified: VERIFIED[status] }, ASSUMED_IN_LIST),
        ),
      };
    },
  });
}

/** /user/list: the account's active users. */
export const userList = listEndpoint('/user/list', 'active');

/** /user/pending: users invited by /user/create who have not confirmed yet. */
export const userPending = listEndpoint('/user/pending', 'pending');
