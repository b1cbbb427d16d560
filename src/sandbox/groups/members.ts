import { z } from 'zod';
import type { SandboxApp, SandboxContext } from '../context.js';
import { notFound, userNotFound, V2Code } from '../errors.js';
import type { Account } from '../model/account.js';
import type { User } from '../model/user.js';
import { pageBody, paginate } from '../paging.js';
import type { SandboxState } from '../state.js';
import { orRequired } from '../users/schemas.js';
import { readBody } from '../validation.js';
import type { AnyGroup } from './lookup.js';

/**
 * Members of groups and IM groups: the same three endpoints under both, over `member_ids`.
 * Members are users of the group's account; a user who has since left the account (deleted or
 * disassociated) no longer counts, whoever forgot to take them out of the group.
 */

/** The v2 spec's limit on members arrays. (The reference says 10 for IM groups; our spec's 30 wins.) */
const MAX_MEMBERS_PER_CALL = 30;

const addMembersSchema = z.strictObject({
  members: z
    .array(
      z
        .strictObject({
          id: z.string('Must be a string.').min(1, 'Must not be empty.').optional(),
          email: z.string('Must be a string.').min(1, 'Must not be empty.').optional(),
        })
        .refine((m) => m.id !== undefined || m.email !== undefined, { message: 'Each member needs an id or an email.' }),
      orRequired('Must be an array of {id, email}.'),
    )
    .min(1, 'Must name at least one member.')
    .max(MAX_MEMBERS_PER_CALL, `At most ${MAX_MEMBERS_PER_CALL} members per call.`),
});

export function membersOf(state: SandboxState, group: AnyGroup): User[] {
  return group.member_ids.map((id) => state.users.get(id)).filter((u): u is User => u !== undefined && u.account_id === group.account_id);
}

/** A user of `account` by id, or else by email; users of other accounts are unknown. */
function accountUser(state: SandboxState, account: Account, member: { id?: string; email?: string }): User {
  const user = member.id !== undefined ? state.users.get(member.id) : state.usersByEmail.get(member.email!.toLowerCase());
  if (!user || user.account_id !== account.id) throw userNotFound(member.id ?? member.email!);
  return user;
}

export interface MemberRoutesOptions<G extends AnyGroup> {
  /** `/groups` or `/im/groups`. */
  base: string;
  /** The caller's group with this id, or a 404. */
  requireGroup(account: Account, id: string): G;
  /** Called after the members changed (IM groups stamp `last_modified_time`). */
  changed?(group: G): void;
}

export function registerMemberRoutes<G extends AnyGroup>(
  app: SandboxApp,
  { state }: SandboxContext,
  options: MemberRoutesOptions<G>,
): void {
  const { base, requireGroup, changed } = options;

  app.get(`${base}/:groupId/members`, (c) => {
    const group = requireGroup(c.get('account'), c.req.param('groupId'));
    const page = paginate(c, state.pages, `${base}:${group.id}:members`, membersOf(state, group), 'omitted');
    const items = page.items.map((u) => ({ id: u.id, email: u.email, first_name: u.first_name, last_name: u.last_name, type: u.type }));
    return c.json(pageBody({ ...page, items }, 'members'));
  });

  // All or nothing: every member must resolve before any is added. Adding a member twice is harmless.
  app.post(`${base}/:groupId/members`, async (c) => {
    const account = c.get('account');
    const group = requireGroup(account, c.req.param('groupId'));
    const { members } = await readBody(c, addMembersSchema);
    const ids = [...new Set(members.map((m) => accountUser(state, account, m).id))];
    const current = new Set(membersOf(state, group).map((u) => u.id));
    group.member_ids = [...current, ...ids.filter((id) => !current.has(id))];
    changed?.(group);
    return c.json({ ids: ids.join(','), added_at: state.nowIso() }, 201);
  });

  app.delete(`${base}/:groupId/members/:memberId`, (c) => {
    const group = requireGroup(c.get('account'), c.req.param('groupId'));
    const memberId = c.req.param('memberId');
    if (!membersOf(state, group).some((u) => u.id === memberId)) {
      throw notFound(V2Code.userNotExist, `User ${memberId} is not a member of group ${group.id}.`);
    }
    group.member_ids = group.member_ids.filter((id) => id !== memberId);
    changed?.(group);
    return c.body(null, 204);
  });
}
