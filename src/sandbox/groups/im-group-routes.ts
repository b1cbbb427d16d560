import { z } from 'zod';
import type { SandboxApp, SandboxContext } from '../context.js';
import { opaqueId } from '../ids.js';
import type { Account } from '../model/account.js';
import type { ImGroup } from '../model/group.js';
import { pageBody, paginate } from '../paging.js';
import type { SandboxState } from '../state.js';
import { orRequired } from '../users/schemas.js';
import { SandboxError } from '../errors.js';
import { readBody } from '../validation.js';
import { assertNameFree, requireGroupIn } from './lookup.js';
import { membersOf, registerMemberRoutes } from './members.js';

/** Name: max 128 (v2 Limits); required on create for the reason given in group-routes.ts. */
const imGroupName = z
  .string(orRequired('Must be a string.'))
  .trim()
  .min(1, 'Name must not be empty.')
  .max(128, 'Name must be at most 128 characters.');

const editableFields = {
  type: z.enum(['normal', 'shared', 'restricted'], 'Must be normal, shared or restricted.'),
  search_by_domain: z.boolean('Must be a boolean.'),
  search_by_account: z.boolean('Must be a boolean.'),
  search_by_ma_account: z.boolean('Must be a boolean.'),
};

const createSchema = z.strictObject({ name: imGroupName, ...editableFields }).partial({
  type: true,
  search_by_domain: true,
  search_by_account: true,
  search_by_ma_account: true,
});
const patchSchema = z.strictObject({ name: imGroupName, ...editableFields }).partial();

/**
 * GET answers and list items. `last_modified_time` is not in the v2 reference's item, but v1's
 * IM group list carries it and the gateway can only pass on what v2 gives.
 */
function renderImGroup(state: SandboxState, group: ImGroup) {
  return {
    id: group.id,
    name: group.name,
    total_members: membersOf(state, group).length,
    type: group.type,
    search_by_domain: group.search_by_domain,
    search_by_account: group.search_by_account,
    search_by_ma_account: group.search_by_ma_account,
    last_modified_time: group.last_modified_time,
  };
}

/** Every `/im/groups` route of today's documents lists it: 410, code 4137. */
const imGroupsRetired = () => new SandboxError(410, 4137, 'The IM Group APIs are no longer available.');

/** IM groups: /im/groups, /im/groups/{groupId} and its members. */
export function registerImGroupRoutes(app: SandboxApp, ctx: SandboxContext): void {
  const { state } = ctx;
  // Before any route reads its body or looks a group up: a retired API answers the same 410 to
  // every caller of the account, whatever the request.
  for (const path of ['/im/groups', '/im/groups/*']) {
    app.use(path, async (c, next) => {
      if (c.get('account').imGroupsRetired === true) throw imGroupsRetired();
      await next();
    });
  }
  const requireGroup = (account: Account, id: string) => requireGroupIn(state.imGroups, account, id);
  const touch = (group: ImGroup) => {
    group.last_modified_time = state.nowIso();
  };

  app.get('/im/groups', (c) => {
    const account = c.get('account');
    const page = paginate(
      c,
      state.pages,
      `im_groups:${account.id}`,
      [...state.imGroups.values()].filter((g) => g.account_id === account.id),
    );
    return c.json(pageBody({ ...page, items: page.items.map((g) => renderImGroup(state, g)) }, 'groups'));
  });

  app.post('/im/groups', async (c) => {
    const account = c.get('account');
    const body = await readBody(c, createSchema);
    assertNameFree(state.imGroups, account, body.name);
    const now = state.nowIso();
    const group: ImGroup = {
      id: opaqueId(),
      account_id: account.id,
      name: body.name,
      type: body.type ?? 'normal',
      search_by_domain: body.search_by_domain ?? false,
      search_by_account: body.search_by_account ?? false,
      search_by_ma_account: body.search_by_ma_account ?? false,
      member_ids: [],
      created_at: now,
      last_modified_time: now,
    };
    state.imGroups.set(group.id, group);
    // The create answer is the spec's list: no type, no times.
    const { id, name, total_members, search_by_domain, search_by_account, search_by_ma_account } = renderImGroup(state, group);
    return c.json({ id, name, total_members, search_by_domain, search_by_account, search_by_ma_account }, 201);
  });

  app.get('/im/groups/:groupId', (c) => c.json(renderImGroup(state, requireGroup(c.get('account'), c.req.param('groupId')))));

  app.patch('/im/groups/:groupId', async (c) => {
    const account = c.get('account');
    const group = requireGroup(account, c.req.param('groupId'));
    const patch = await readBody(c, patchSchema, { allowEmpty: true });
    if (patch.name !== undefined) assertNameFree(state.imGroups, account, patch.name, group);
    const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
    if (Object.keys(changes).length > 0) {
      Object.assign(group, changes);
      touch(group);
    }
    return c.body(null, 204);
  });

  app.delete('/im/groups/:groupId', (c) => {
    const group = requireGroup(c.get('account'), c.req.param('groupId'));
    state.imGroups.delete(group.id);
    return c.body(null, 204);
  });

  registerMemberRoutes(app, ctx, { base: '/im/groups', requireGroup, changed: touch });
}
