import { enumCodec, NO_V2_FIELD, type FieldTable } from '../src/v1/field-map.js';
import { outputFieldsOf, type AnswerShape } from '../src/v1/answer.js';
import { v1 } from '../src/v1/param-types.js';

/**
 * Groups and IM groups: the v1 group output and the fields v1 create/edit take. Every v1 group
 * answer also carries `account_id`, which v2 group objects lack: the translators add the caller's
 * account id (see docs/decisions.md).
 */

/** The group output (`group_id`, `name`, `total_members`) and the `name` v1 create/edit take. */
export const GROUP_ROWS: FieldTable = [
  { v1: 'group_id', v2: 'id', direction: 'out', note: 'v1 names the group id group_id in answers (and id in requests).' },
  { v1: 'name', v2: 'name', type: v1.string(), note: 'Unique per account; v2 answers 409 for a name in use.' },
  { v1: 'total_members', v2: 'total_members', direction: 'out' },
];

/** v1 IM group types (capitalised) ↔ v2 (lower case). */
export const imGroupTypeCodec = enumCodec<string, string>([
  ['Normal', 'normal'],
  ['Restricted', 'restricted'],
  ['Shared', 'shared'],
]);

/** The IM group output and the fields v1 IM create/edit take (v1 defaults apply on create only). */
export const IM_GROUP_ROWS: FieldTable = [
  ...GROUP_ROWS,
  {
    v1: 'type',
    v2: 'type',
    type: v1.oneOf(['Normal', 'Restricted', 'Shared'], { caseInsensitive: true }),
    codec: imGroupTypeCodec,
    v1Default: 'Normal',
    direction: 'in',
    note: 'Any letter case accepted. The v1 IM group output has no type, so answers do not show it.',
  },
  { v1: 'option_search_by_domain', v2: 'search_by_domain', type: v1.bool(), v1Default: false },
  { v1: 'option_search_by_account', v2: 'search_by_account', type: v1.bool(), v1Default: false },
  {
    v1: 'option_search_by_ma',
    v2: 'search_by_ma_account',
    type: v1.bool(),
    v1Default: false,
    direction: 'in',
    aliases: ['option_search_by_ma_account'],
    note: 'v1 takes option_search_by_ma and answers option_search_by_ma_account; the answer spelling is accepted too.',
  },
  { v1: 'option_search_by_ma_account', v2: 'search_by_ma_account', direction: 'out' },
];

/** IM group list items add the time of the last change. */
export const IM_GROUP_LIST_ITEM_ROWS: FieldTable = [
  ...IM_GROUP_ROWS,
  {
    v1: 'last_modified_time',
    v2: 'last_modified_time',
    direction: 'out',
    note: "Not in the v2 reference's IM group item; the sandbox (and the service) send it.",
  },
];

/** A member in the member lists of groups and IM groups. */
export const GROUP_MEMBER_ROWS: FieldTable = [
  { v1: 'id', v2: 'id', direction: 'out' },
  { v1: 'email', v2: 'email', direction: 'out' },
  { v1: 'first_name', v2: 'first_name', direction: 'out' },
  { v1: 'last_name', v2: 'last_name', direction: 'out' },
  {
    v1: 'pic_url',
    v2: NO_V2_FIELD,
    direction: 'out',
    note:
      'v2 member lists have no picture URL; reading it would take one GET /users/{id} per member (up to 300 a page, ' +
      "30 s at v2's 10 calls a second). Answered as an empty string, so the field keeps its v1 type.",
  },
];

/**
 * The v1 group answers: `group_id` and `account_id` (which v2 groups do not carry: the caller's
 * account), then the rest of the table's output fields in its order.
 */
const groupAnswer = (table: FieldTable): AnswerShape => ({ fields: [...new Set(['group_id', 'account_id', ...outputFieldsOf(table)])] });

export const GROUP_ANSWER = groupAnswer(GROUP_ROWS);
export const IM_GROUP_ANSWER = groupAnswer(IM_GROUP_ROWS);
export const IM_GROUP_LIST_ITEM_ANSWER = groupAnswer(IM_GROUP_LIST_ITEM_ROWS);

/** A member of the member lists; `pic_url` (no v2 home, see its row) answered empty. */
export const GROUP_MEMBER_ANSWER: AnswerShape = { fields: outputFieldsOf(GROUP_MEMBER_ROWS), whenAbsent: { pic_url: '' } };
