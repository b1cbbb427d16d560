import {
  GROUP_ANSWER,
  GROUP_ROWS,
  IM_GROUP_ANSWER,
  IM_GROUP_LIST_ITEM_ANSWER,
  IM_GROUP_LIST_ITEM_ROWS,
  IM_GROUP_ROWS,
} from '../../../mappings/groups.js';
import type { AnswerShape } from '../../v1/answer.js';
import type { FieldTable } from '../../v1/field-map.js';
import { V2 } from '../../v2-contract/v2-routes.js';

/**
 * Groups and IM groups are the same family in both versions: the same calls, the same answers, at
 * two v2 collections. A kind says which one; the endpoint factories in this folder take it.
 */
export interface GroupKind {
  /** For messages and docs: "group" or "IM group". */
  label: string;
  /** The v1 path prefix: `/group` or `/im/group`. */
  v1Prefix: string;
  /** The v2 routes of the kind's collection (`/groups` or `/im/groups`): the same calls at each. */
  v2: typeof V2.groups | typeof V2.imGroups;
  /** The v1 group output and the fields create and edit take. */
  table: FieldTable;
  /** The v1 group answer (mappings/groups.ts). */
  answer: AnswerShape;
  /** The fields of a v1 list item. */
  listItemTable: FieldTable;
  listItemAnswer: AnswerShape;
  /** Whether the v2 list is paged (IM groups) or answers every group at once (groups). */
  pagedList: boolean;
}

export const PLAIN_GROUPS: GroupKind = {
  label: 'group',
  v1Prefix: '/group',
  v2: V2.groups,
  table: GROUP_ROWS,
  answer: GROUP_ANSWER,
  listItemTable: GROUP_ROWS,
  listItemAnswer: GROUP_ANSWER,
  pagedList: false,
};

/** IM groups: the group family at v2's /im/groups, with the IM options and a paged v2 list. */
export const IM_GROUPS: GroupKind = {
  label: 'IM group',
  v1Prefix: '/im/group',
  v2: V2.imGroups,
  table: IM_GROUP_ROWS,
  answer: IM_GROUP_ANSWER,
  listItemTable: IM_GROUP_LIST_ITEM_ROWS,
  listItemAnswer: IM_GROUP_LIST_ITEM_ANSWER,
  pagedList: true,
};
