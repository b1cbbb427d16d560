import type { z } from 'zod';
import { USER_MEMBERSHIPS } from '../../../mappings/user-fields.js';
import { USER_OPTION_COMPOSITES } from '../../../mappings/user-options.js';
import { V2 } from '../../v2-contract/v2-routes.js';
import { defineEndpoint } from '../kit/define.js';
import { writeBody } from '../kit/write-bodies.js';
import { Rollback } from '../kit/rollback.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { USER_ANSWERS } from '../../../mappings/user-answers.js';
import type { AnswerShape } from '../../v1/answer.js';
import { readV1User, userReadCalls } from './user-output.js';
import { USER_V2_NAMING, membershipShape, optionFields, requiredUserType, sharedOptionSet, tablesFor, userFields } from './user-params.js';
import { applyWrites, createWrites, planWrites } from './user-writes.js';

/**
 * The four v1 creates, one v2 `POST /users` action each. The new user then gets the rest of its
 * v1 fields (settings with the v1 defaults, dept/pmi, group and IM group memberships) and the
 * answer is read back from v2. If any step fails the user is deleted again: nothing half-done.
 */

type CreateAction = 'create' | 'autoCreate' | 'custCreate' | 'ssoCreate';

const required = { email: v1.email(), type: requiredUserType() };

function createEndpoint(path: string, action: CreateAction, shape: Record<string, z.ZodType>, answer: AnswerShape) {
  const paramShape = { ...shape, ...required };
  const writes = createWrites(action);
  return defineEndpoint({
    path,
    params: v1Params(paramShape),
    v2Calls: [
      V2.users.create,
      V2.users.update,
      V2.users.updateSettings,
      ...USER_MEMBERSHIPS.map((row) => row.addMembers),
      ...userReadCalls(answer),
    ],
    // Deleting the new user takes back everything written after it.
    v2Undo: [V2.users.delete],
    // Which rows go to which write: the names, type, email and password in POST /users, the rest after it.
    v2Writes: [writes.info, writes.user, writes.settings],
    tables: tablesFor(paramShape, answer.fields),
    composites: USER_OPTION_COMPOSITES,
    v2Naming: USER_V2_NAMING,
    async handle(params, ctx) {
      const rollback = new Rollback(ctx);
      return rollback.run(async () => {
        const created = await ctx.v2.post(V2.users.create.at(), writeBody(writes.info, params));
        rollback.onFailure(`the user ${params.email} was created`, (v2) => v2.delete(V2.users.delete.at(created.id), { action: 'delete' }));
        await applyWrites(ctx, created.id, planWrites(params, undefined, writes));
        return readV1User(ctx.v2, created.id, answer);
      });
    },
  });
}

/** /user/create: the user gets a confirmation email and stays pending until they confirm. */
export const userCreate = createEndpoint('/user/create', 'create', sharedOptionSet, USER_ANSWERS.create);

/** /user/autocreate: a user of a managed domain, active at once, with the given password. */
export const userAutoCreate = createEndpoint(
  '/user/autocreate',
  'autoCreate',
  { ...sharedOptionSet, password: v1.string() },
  USER_ANSWERS.full,
);

/** /user/custcreate: an API user without a password (cannot sign in). */
export const userCustCreate = createEndpoint('/user/custcreate', 'custCreate', sharedOptionSet, USER_ANSWERS.full);

/** /user/ssocreate: a pre-provisioned SSO user; takes only names, capacities, pmi and memberships. */
export const userSsoCreate = createEndpoint(
  '/user/ssocreate',
  'ssoCreate',
  {
    ...userFields('first_name', 'last_name', 'pmi'),
    ...optionFields('meeting_capacity', 'enable_webinar', 'webinar_capacity', 'enable_large', 'large_capacity'),
    ...membershipShape,
  },
  USER_ANSWERS.ssocreate,
);
