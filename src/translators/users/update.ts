import { USER_MEMBERSHIPS } from '../../../mappings/user-fields.js';
import { USER_OPTION_COMPOSITES } from '../../../mappings/user-options.js';
import { V2 } from '../../v2-contract/v2-routes.js';
import { defineEndpoint } from '../kit/define.js';
import { Rollback } from '../kit/rollback.js';
import { v1Params } from '../../v1/param-types.js';
import { SETTINGS_FIELDS } from './user-output.js';
import { USER_V2_NAMING, tablesFor, updateOptionSet, userId } from './user-params.js';
import { USER_OBJECT_WRITE, USER_SETTINGS_WRITE, applyWrites, planWrites } from './user-writes.js';

/**
 * /user/update: the user object, the settings and the memberships, written in parallel. The user
 * (and the settings, when any is written) are read first: that answers 1001 for an unknown user
 * before anything is written, completes a composite given in part (the chime type alone), and
 * keeps the values to put back if another write fails.
 */
export const userUpdate = defineEndpoint({
  path: '/user/update',
  params: v1Params({ id: userId(), ...updateOptionSet }),
  v2Calls: [V2.users.get, V2.users.settings, V2.users.update, V2.users.updateSettings, ...USER_MEMBERSHIPS.map((row) => row.addMembers)],
  // What a failed write puts back: the user's fields, its settings, a membership it did not have.
  v2Undo: [V2.users.update, V2.users.updateSettings, ...USER_MEMBERSHIPS.map((row) => row.removeMember)],
  // Which rows go to which write: the user object's fields, then the settings (planWrites builds them from these).
  v2Writes: [USER_OBJECT_WRITE, USER_SETTINGS_WRITE],
  tables: tablesFor(updateOptionSet),
  composites: USER_OPTION_COMPOSITES,
  v2Naming: USER_V2_NAMING,
  async handle(params, ctx) {
    const writesSettings = Object.entries(params).some(([field, value]) => value !== undefined && SETTINGS_FIELDS.has(field));
    const [user, settings] = await Promise.all([
      ctx.v2.get(V2.users.get.at(params.id)),
      writesSettings ? ctx.v2.get(V2.users.settings.at(params.id)) : undefined,
    ]);
    const plan = planWrites(params, settings);
    const rollback = new Rollback(ctx);
    await rollback.run(() => applyWrites(ctx, user.id, plan, rollback, settings ? { user, settings } : { user }));
    return { id: user.id, updated_at: ctx.nowIso() };
  },
});
