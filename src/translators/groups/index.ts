import type { EndpointDefinition } from '../kit/define.js';
import { groupCreate, groupDelete, groupEdit, groupGet, groupList } from './crud.js';
import { IM_GROUPS, PLAIN_GROUPS } from './kind.js';
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

/**
 * The v1 IM group endpoints. v1's spec documents IM member add under /group/member/add (served
 * above for both kinds); legacy clients call /im/group/member/add, served here.
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
