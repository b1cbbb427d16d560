import type { EndpointDefinition } from '../kit/define.js';
import { IM_GROUPS } from '../im-groups/kind.js';
import { groupCreate, groupDelete, groupEdit, groupGet, groupList } from './crud.js';
import { PLAIN_GROUPS } from './kind.js';
import { memberAdd, memberDelete, memberList } from './members.js';

/** The v1 group endpoints. /group/member/add also adds IM group members, as v1's spec documents. */
export const groupsEndpoints: EndpointDefinition[] = [
  groupCreate(PLAIN_GROUPS),
  groupList(PLAIN_GROUPS),
  groupGet(PLAIN_GROUPS),
  groupEdit(PLAIN_GROUPS),
  groupDelete(PLAIN_GROUPS),
  memberList(PLAIN_GROUPS),
  memberAdd('/group/member/add', [PLAIN_GROUPS, IM_GROUPS]),
  memberDelete(PLAIN_GROUPS),
];
