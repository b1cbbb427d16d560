import type { EndpointDefinition } from '../kit/define.js';
import { groupCreate, groupDelete, groupEdit, groupGet, groupList } from '../groups/crud.js';
import { memberAdd, memberDelete, memberList } from '../groups/members.js';
import { IM_GROUPS } from './kind.js';

/**
 * The v1 IM group endpoints. v1's spec documents IM member add under /group/member/add (served by
 * the groups area for both kinds); legacy clients call /im/group/member/add, served here.
 */
export const imgroupsEndpoints: EndpointDefinition[] = [
  groupCreate(IM_GROUPS),
  groupList(IM_GROUPS),
  groupGet(IM_GROUPS),
  groupEdit(IM_GROUPS),
  groupDelete(IM_GROUPS),
  memberList(IM_GROUPS),
  memberAdd('/im/group/member/add', [IM_GROUPS]),
  memberDelete(IM_GROUPS),
];
