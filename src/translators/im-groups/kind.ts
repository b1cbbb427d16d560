import { IM_GROUP_ANSWER, IM_GROUP_LIST_ITEM_ANSWER, IM_GROUP_LIST_ITEM_ROWS, IM_GROUP_ROWS } from '../../../mappings/groups.js';
import type { GroupKind } from '../groups/kind.js';

/** IM groups: the group family at v2's /im/groups, with the IM options and a paged v2 list. */
export const IM_GROUPS: GroupKind = {
  label: 'IM group',
  v1Prefix: '/im/group',
  v2Base: '/im/groups',
  table: IM_GROUP_ROWS,
  answer: IM_GROUP_ANSWER,
  listItemTable: IM_GROUP_LIST_ITEM_ROWS,
  listItemAnswer: IM_GROUP_LIST_ITEM_ANSWER,
  pagedList: true,
};
