import { USER_FIELDS, USER_INFO_FIELDS, USER_MEMBERSHIPS, type MembershipRow } from '../../../mappings/user-fields.js';
import { USER_OPTIONS, USER_OPTION_COMPOSITES, USER_RECORDING_VIEWS } from '../../../mappings/user-options.js';
import { V2 } from '../../v2-contract/v2-routes.js';
import type { TranslatorContext } from '../kit/define.js';
import { getPath, setPath } from '../../v1/field-map.js';
import { declareWrite, writeBody, type WriteBody } from '../kit/write-bodies.js';
import type { Rollback } from '../kit/rollback.js';
import { allInOrder } from '../kit/settle.js';
import type { V2Settings, V2User } from './user-output.js';

/**
 * Where the v1 user fields of a create or an update go in v2: the user object (PATCH
 * /users/{id}), the settings (PATCH /users/{id}/settings) and group memberships (POST
 * .../members). The writes run in parallel; each registers its undo once it succeeded.
 */

/** The user object's fields (dept, pmi, ...): PATCH /users/{userId}. */
export const USER_OBJECT_WRITE = declareWrite({ route: V2.users.update, tables: [USER_FIELDS] });

/** The settings, the recording views and the composites (automatic recording, the chime): PATCH /users/{userId}/settings. */
export const USER_SETTINGS_WRITE = declareWrite({
  route: V2.users.updateSettings,
  tables: [USER_OPTIONS, USER_RECORDING_VIEWS],
  composites: USER_OPTION_COMPOSITES,
});

/** What a create sends in POST /users: the action, and in `user_info` the email, names, type and password. */
const USER_INFO_ROWS = ['email', 'type', 'first_name', 'last_name', 'password'];

/**
 * The writes of a v1 create: POST /users with the user's info, then the rest of the user object
 * and the settings, which get the v1 defaults of the options the call leaves out (v1 users start
 * with chat, feedback and local recording on, automatic recording off).
 */
export function createWrites(action: 'create' | 'autoCreate' | 'custCreate' | 'ssoCreate') {
  return {
    info: declareWrite({
      route: V2.users.create,
      tables: [USER_INFO_FIELDS, USER_FIELDS],
      only: USER_INFO_ROWS,
      under: 'user_info',
      constants: { action },
    }),
    user: declareWrite({ route: V2.users.update, tables: [USER_FIELDS], except: USER_INFO_ROWS }),
    settings: declareWrite({
      route: V2.users.updateSettings,
      tables: [USER_OPTIONS, USER_RECORDING_VIEWS],
      composites: USER_OPTION_COMPOSITES,
      v1Defaults: true,
    }),
  };
}

export interface PlannedWrites {
  user: Record<string, unknown>;
  settings: Record<string, unknown>;
  memberships: { row: MembershipRow; groupId: string }[];
}

/** The writes of an update (or, with a create's `writes`, of a create after its POST /users): each body from its declaration. */
export function planWrites(
  params: Record<string, unknown>,
  currentSettings?: V2Settings,
  writes: { user: WriteBody; settings: WriteBody } = { user: USER_OBJECT_WRITE, settings: USER_SETTINGS_WRITE },
): PlannedWrites {
  return {
    user: writeBody(writes.user, params),
    settings: writeBody(writes.settings, params, currentSettings),
    memberships: USER_MEMBERSHIPS.filter((row) => params[row.v1] !== undefined).map((row) => ({ row, groupId: String(params[row.v1]) })),
  };
}

/** The user and settings as they were, to undo an update with (a new user needs none: deleting it undoes all). */
export interface BeforeWrites {
  user: V2User;
  settings?: V2Settings;
}

/** What the writes call, and what their undos call: an endpoint that applies them declares these. */
export type UserWriteRoute = typeof V2.users.update | typeof V2.users.updateSettings | MembershipRow['addMembers'];
export type UserWriteUndoRoute = typeof V2.users.update | typeof V2.users.updateSettings | MembershipRow['removeMember'];

/**
 * The writes of `plan`. With `before` (an update), each one that succeeded registers its undo on
 * `rollback`; without (a create), none does: deleting the new user takes back all of them.
 */
export function applyWrites(ctx: TranslatorContext<UserWriteRoute>, userId: string, plan: PlannedWrites): Promise<void>;
export function applyWrites(
  ctx: TranslatorContext<UserWriteRoute>,
  userId: string,
  plan: PlannedWrites,
  rollback: Rollback<UserWriteUndoRoute>,
  before: BeforeWrites,
): Promise<void>;
export async function applyWrites(
  ctx: TranslatorContext<UserWriteRoute>,
  userId: string,
  plan: PlannedWrites,
  rollback?: Rollback<UserWriteUndoRoute>,
  before?: BeforeWrites,
): Promise<void> {
  const writes: Promise<void>[] = [];
  const userAt = V2.users.update.at(userId);
  const settingsAt = V2.users.updateSettings.at(userId);
  if (hasFields(plan.user)) {
    writes.push(
      ctx.v2.patch(userAt, plan.user).then(() => {
        if (before)
          rollback?.onFailure('the user fields were updated', (v2) =>
            v2.patch(userAt, previousValues(plan.user, withVanityName(before.user))),
          );
      }),
    );
  }
  if (hasFields(plan.settings)) {
    writes.push(
      ctx.v2.patch(settingsAt, plan.settings).then(() => {
        const old = before?.settings;
        if (old) rollback?.onFailure('the user settings were updated', (v2) => v2.patch(settingsAt, previousValues(plan.settings, old)));
      }),
    );
  }
  for (const { row, groupId } of plan.memberships) {
    writes.push(
      ctx.v2.post(row.addMembers.at(groupId), { members: [{ id: userId }] }).then(() => {
        // Adding a member twice is harmless, and taking back a membership the user already had is not.
        const hadIt = (before?.user[row.v2UserField] as string[] | undefined)?.includes(groupId) ?? false;
        if (before && !hadIt)
          rollback?.onFailure(`the user was added to ${row.v1} ${groupId}`, (v2) => v2.delete(row.removeMember.at(groupId, userId)));
      }),
    );
  }
  // Every write settles first, so each one that succeeded has registered its undo; then the first failure.
  await allInOrder(writes);
}

const hasFields = (object: Record<string, unknown>) => Object.keys(object).length > 0;

/** The values `current` holds at every leaf path of `patch`: the patch that puts them back. */
export function previousValues(patch: Record<string, unknown>, current: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const path of Object.keys(flatLeaves(patch))) {
    const old = getPath(current, path);
    if (old !== undefined) setPath(out, path, old);
  }
  return out;
}

/** v2 answers the personal room as `vanity_url` (`.../my/<name>`) and takes it as `vanity_name`. */
function withVanityName(user: V2User): V2User {
  const url = typeof user.vanity_url === 'string' ? user.vanity_url : '';
  return { ...user, vanity_name: /\/my\/([^/?#]+)$/.exec(url)?.[1] ?? '' };
}

/** Nested object → `{ 'a.b': value }`. */
function flatLeaves(object: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      Object.assign(out, flatLeaves(value as Record<string, unknown>, path));
    else out[path] = value;
  }
  return out;
}
