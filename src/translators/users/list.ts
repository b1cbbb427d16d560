import { USER_OPTIONS, USER_OPTION_COMPOSITES } from '../../../mappings/user-options.js';
import { V2 } from '../../v2-contract/v2-routes.js';
import { defineEndpoint } from '../kit/define.js';
import { withCompositeDefaults, withV1Defaults } from '../../v1/field-map.js';
import { v1Params } from '../../v1/param-types.js';
import { pageOf, pagingOf, v1PageFields, v1PagingParams } from '../../v1/paging.js';
import { USER_ANSWERS } from '../../../mappings/user-answers.js';
import { answer } from '../../v1/answer.js';
import { type V2Settings, type V2User } from '../kit/v2-answers/users.js';
import type { TranslatorContext } from '../kit/define.js';
import { v1UserAnswer } from './user-output.js';
import { tablesFor } from './user-params.js';
import { v1PageOfTokens } from '../kit/token-walk.js';

/**
 * /user/list and /user/pending: GET /users (status active or pending), v1's page reached by the
 * token chain (kit/token-walk.ts). A v2 list item carries no settings, so an active user's are read, one GET
 * per listed user (a fan-out checked against the outbound limits before any is sent): a list
 * item shows the same option values /user/get shows, where v1 defaults had contradicted v2's
 * own. A pending user's settings cannot be read (v2 refuses them until the user confirms), so a
 * pending item shows the option set's v1 defaults. The tokens are empty in a list item, as v1's
 * own list showed them (the v1 reference's example): minted anew at each read, they are no fact
 * about the user to agree on, and reading them would cost three calls per user.
 */

type ListStatus = 'active' | 'pending';

/** What a list item shows where the v2 list is silent (a pending user's options: their v1 defaults). */
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
    v2Calls: status === 'active' ? [V2.users.list, V2.users.settings] : [V2.users.list],
    tables: tablesFor({}, USER_ANSWERS.listItem.fields),
    async handle(params, ctx) {
      const paging = pagingOf(params);
      const page = await v1PageOfTokens(ctx, { target: V2.users.list.at(), query: { status }, itemsOf: (p) => p.users }, paging);
      const settings = status === 'active' ? await settingsOf(ctx, page.items) : [];
      return {
        ...v1PageFields(pageOf(paging, page.total_records), 'total second'),
        users: page.items.map((user, i) => {
          const parts = { user: { ...user, status }, ...(settings[i] ? { settings: settings[i] } : {}) };
          return answer(USER_ANSWERS.listItem, v1UserAnswer(USER_ANSWERS.listItem, parts), { verified: VERIFIED[status] }, ASSUMED_IN_LIST);
        }),
      };
    },
  });
}

/** The settings of each listed user, in order: one GET each, checked as one fan-out before any is sent. */
async function settingsOf(ctx: TranslatorContext<typeof V2.users.settings>, users: readonly V2User[]): Promise<V2Settings[]> {
  if (users.length > 0) ctx.requireFanOut(V2.users.settings, users.length);
  return Promise.all(users.map((user) => ctx.v2.get(V2.users.settings.at(user.id))));
}

/** /user/list: the account's active users. */
export const userList = listEndpoint('/user/list', 'active');

/** /user/pending: users invited by /user/create who have not confirmed yet. */
export const userPending = listEndpoint('/user/pending', 'pending');
