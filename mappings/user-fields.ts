import type { z } from 'zod';
import { enumCodec, fieldTable, lookupCodec, type Codec } from '../src/v1/field-map.js';
import { v1 } from '../src/v1/param-types.js';
import { V2 } from '../src/v2-contract/v2-routes.js';

/**
 * v1 user fields that live on the v2 user object (GET/PATCH /users/{userId}; first_name,
 * last_name and type also go in POST /users `user_info`). v2 paths are relative to the user.
 */

/** v1 prints the personal meeting id as a number, and today's v2 takes and answers it as one (older answers: its digits as text). */
const pmiAsNumber: Codec<number, number | string> = { name: 'number ↔ number', toV2: (pmi) => pmi, toV1: (pmi) => Number(pmi) };

/**
 * v1's integer `status` (values not shown by the v1 spec; the v1 reference shows 0 for an active
 * user who has signed in). Our choice, in docs/decisions.md: 0 active, 1 inactive, 2 pending.
 */
export const USER_STATUS = enumCodec<number, string>([
  [0, 'active'],
  [1, 'inactive'],
  [2, 'pending'],
]);

/**
 * v1's user types (1 basic, 2 pro, 3 corp) and today's v2 ones (1 basic, 2 licensed, 4 unassigned
 * without Meetings Basic, 99 none; 3 is gone, docs/live-evidence.md). A corp user was a paid one:
 * it is made licensed. Read back, licensed is pro, and a user with no license at all (4, 99) basic,
 * the v1 type of a user who can host only basic meetings.
 */
export const USER_TYPE = lookupCodec<number, number>('1↔1, 2↔2, 3→2 (corp is licensed today); 4, 99→1', {
  toV2: [[3, 2]],
  toV2Else: 'same',
  toV1: [[2, 2]],
  toV1Else: { value: 1 },
});

export const USER_FIELDS = fieldTable([
  { v1: 'first_name', v2: 'first_name', type: v1.string({ max: 64 }) },
  { v1: 'last_name', v2: 'last_name', type: v1.string({ max: 64 }) },
  { v1: 'type', v2: 'type', type: v1.intOneOf([1, 2, 3]), codec: USER_TYPE },
  {
    v1: 'pmi',
    v2: 'pmi',
    type: v1
      .string()
      .refine((text) => /^[1-9]\d{9}$/.test(text), 'Must be 10 digits, not starting with 0.')
      .transform(Number),
    codec: pmiAsNumber,
  },
  { v1: 'timezone', v2: 'timezone', type: v1.string({ max: 64 }) },
  { v1: 'dept', v2: 'dept', type: v1.string({ max: 128 }) },
  {
    v1: 'vanity_name',
    v2: 'vanity_name',
    type: v1.string({ max: 40 }),
    direction: 'in',
    note: 'v2 answers the room as vanity_url (v1 output shows vanity_url too).',
  },
  { v1: 'host_key', v2: 'host_key', type: v1.string().refine((text) => /^\d{6}$/.test(text), 'Must be a 6-digit number.') },
  { v1: 'cms_user_id', v2: 'cms_user_id', type: v1.string({ max: 128 }) },
  { v1: 'enable_use_pmi', v2: 'use_pmi', type: v1.bool() },
  // Output only: what v2 says about the user that v1 shows.
  { v1: 'id', v2: 'id', direction: 'out' },
  { v1: 'email', v2: 'email', direction: 'out' },
  { v1: 'account_id', v2: 'account_id', direction: 'out' },
  { v1: 'created_at', v2: 'created_at', direction: 'out' },
  { v1: 'pic_url', v2: 'pic_url', direction: 'out' },
  { v1: 'verified', v2: 'verified', direction: 'out' },
  { v1: 'vanity_url', v2: 'vanity_url', direction: 'out' },
  { v1: 'status', v2: 'status', codec: USER_STATUS, direction: 'out', note: 'v1 0 active, 1 inactive, 2 pending (our choice).' },
  { v1: 'lastClientVersion', v2: 'last_client_version', direction: 'out' },
  { v1: 'lastLoginTime', v2: 'last_login_time', direction: 'out', note: 'Empty until the user first signs in, as v1 printed it.' },
]);

/**
 * What only a create sends of a new user, beside its names and type: the email it is made for and
 * (/user/autocreate) its password, in POST /users `user_info` with them (src/translators/users/user-writes.ts
 * declares which write takes which rows).
 */
export const USER_INFO_FIELDS = fieldTable([
  { v1: 'email', v2: 'email', type: v1.email(), direction: 'in' },
  { v1: 'password', v2: 'password', type: v1.string(), direction: 'in' },
]);

/**
 * v1 `group_id` / `imgroup_id`: the user's group and IM group. v2 has memberships instead, written
 * after the user (POST .../members) and taken back when a later step fails. v1's "defaults to the
 * default group" has no v2 counterpart: without the field, no membership is written.
 */
export interface MembershipRow {
  v1: string;
  type: z.ZodType;
  /** Adds members to the group (group id); typed as its routes, which an endpoint that writes memberships declares. */
  addMembers: typeof V2.groups.addMembers | typeof V2.imGroups.addMembers;
  /** Takes one member out of it (group id, user id): the undo of an add. */
  removeMember: typeof V2.groups.removeMember | typeof V2.imGroups.removeMember;
  /** Where v2 lists the user's memberships on GET /users/{userId}. */
  v2UserField: 'group_ids' | 'im_group_ids';
}

export const USER_MEMBERSHIPS: readonly MembershipRow[] = [
  {
    v1: 'group_id',
    type: v1.string({ max: 128 }),
    addMembers: V2.groups.addMembers,
    removeMember: V2.groups.removeMember,
    v2UserField: 'group_ids',
  },
  {
    v1: 'imgroup_id',
    type: v1.string({ max: 128 }),
    addMembers: V2.imGroups.addMembers,
    removeMember: V2.imGroups.removeMember,
    v2UserField: 'im_group_ids',
  },
];
