import { z } from 'zod';
import type { SandboxApp, SandboxContext } from '../context.js';
import { opaqueId } from '../ids.js';
import type { Account } from '../model/account.js';
import type { Group } from '../model/group.js';
import type { SandboxState } from '../state.js';
import { orRequired } from '../users/schemas.js';
import { readBody } from '../validation.js';
import { assertNameFree, requireGroupIn } from './lookup.js';
import { membersOf, registerMemberRoutes } from './members.js';

/**
 * The v2 spec marks `name` optional on create, as it marks every body field; a group without a
 * name could be neither told apart nor kept unique, and v1 requires it, so create requires it.
 * Length below 128 (v2 Limits).
 */
const groupName = z
  .string(orRequired('Must be a string.'))
  .trim()
  .min(1, 'Name must not be empty.')
  .max(127, 'Name must be shorter than 128 characters.');

const createSchema = z.strictObject({ name: groupName });
const patchSchema = z.strictObject({ name: groupName.optional() });

function renderGroup(state: SandboxState, group: Group) {
  return { id: group.id, name: group.name, total_members: membersOf(state, group).length };
}

/** Groups: /groups, /groups/{groupId} and its members. */
export function registerPlainGroupRoutes(app: SandboxApp, ctx: SandboxContext): void {
  const { state } = ctx;
  const requireGroup = (account: Account, id: string) => requireGroupIn(state.groups, account, id);

  app.get('/groups', (c) => {
    const account = c.get('account');
    const groups = [...state.groups.values()].filter((g) => g.account_id === account.id).map((g) => renderGroup(state, g));
    return c.json({ total_records: groups.length, groups });
  });

  app.post('/groups', async (c) => {
    const account = c.get('account');
    const { name } = await readBody(c, createSchema);
    assertNameFree(state.groups, account, name);
    const group: Group = { id: opaqueId(), account_id: account.id, name, member_ids: [] };
    state.groups.set(group.id, group);
    return c.json(renderGroup(state, group), 201);
  });

  app.get('/groups/:groupId', (c) => c.json(renderGroup(state, requireGroup(c.get('account'), c.req.param('groupId')))));

  app.patch('/groups/:groupId', async (c) => {
    const account = c.get('account');
    const group = requireGroup(account, c.req.param('groupId'));
    const { name } = await readBody(c, patchSchema, { allowEmpty: true });
    if (name !== undefined) {
      assertNameFree(state.groups, account, name, group);
      group.name = name;
    }
    return c.body(null, 204);
  });

  // Members' group_ids are derived from the groups, so deleting the group is all it takes.
  app.delete('/groups/:groupId', (c) => {
    const group = requireGroup(c.get('account'), c.req.param('groupId'));
    state.groups.delete(group.id);
    return c.body(null, 204);
  });

  registerMemberRoutes(app, ctx, { base: '/groups', requireGroup });
}
