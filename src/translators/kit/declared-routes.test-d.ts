import { V2 } from '../../v2-contract/v2-routes.js';
import type { V2Route } from '../../v2-contract/v2-route.js';
import { v1Params } from '../../v1/param-types.js';
import { z } from 'zod';
import { NO_CONTENT } from './answer-shape.js';
import type { V2User } from './v2-answers/users.js';
import { V2_ANSWERS, type V2Answer, type V2RouteName } from './v2-answers/table.js';
import { defineEndpoint, type TranslatorContext, type V2Api } from './define.js';
import { Rollback } from './rollback.js';

/**
 * What the compiler proves of every endpoint, shown on fixtures: `npm test`'s `tsc --noEmit` checks
 * this file (it is never run). Each `@ts-expect-error` marks a line that must not compile; if one
 * compiled, tsc would fail on the unused directive. test/gateway/declared-calls.test.ts keeps what
 * types cannot prove.
 */

const params = v1Params({});

/** A helper shared by endpoints, over the one route it calls (as sessions/host-check.ts's requireHostId). */
const requireHostId = (ctx: TranslatorContext<typeof V2.users.get>, id: string) => ctx.v2.get(V2.users.get.at(id));

/** Calls its routes with their own methods, its undo with the undo's route, and a helper whose route it declares. */
export const declaring = defineEndpoint({
  path: '/test/declaring',
  params,
  v2Calls: [V2.users.get, V2.users.update],
  v2Undo: [V2.users.delete],
  async handle(_params, ctx) {
    const user = await ctx.v2.get(V2.users.get.at('me'));
    await ctx.v2.patch(V2.users.update.at('me'), { first_name: 'A' });
    const rollback = new Rollback(ctx);
    rollback.onFailure('the user was updated', (v2) => v2.delete(V2.users.delete.at('me')));
    await requireHostId(ctx, 'me');
    return { user };
  },
});

export const undeclared = defineEndpoint({
  path: '/test/undeclared',
  params,
  v2Calls: [V2.users.get],
  v2Undo: [V2.users.delete],
  async handle(_params, ctx) {
    // @ts-expect-error -- a route the endpoint does not declare.
    await ctx.v2.get(V2.users.settings.at('me'));
    // @ts-expect-error -- a route of the same path, another method: GET /users/{userId} is declared, not PATCH.
    await ctx.v2.patch(V2.users.update.at('me'), {});
    // @ts-expect-error -- an undo route, called as a call.
    await ctx.v2.delete(V2.users.delete.at('me'));
    // @ts-expect-error -- a declared call, called as an undo.
    await ctx.undoV2.get(V2.users.get.at('me'));
    const rollback = new Rollback(ctx);
    // @ts-expect-error -- an undo of a route v2Undo does not name.
    rollback.onFailure('the user was created', (v2) => v2.patch(V2.users.update.at('me'), {}));
    // @ts-expect-error -- the IM groups' route where the groups' is declared: each route is a type of its own.
    ctx.requireFanOut(V2.imGroups.list, 2);
    return {};
  },
});

/** A helper over GET /users/{userId}: an endpoint that does not declare it cannot hand it its client. */
export const helperNotDeclared = defineEndpoint({
  path: '/test/helper',
  params,
  v2Calls: [V2.users.list],
  async handle(_params, ctx) {
    // @ts-expect-error -- requireHostId calls GET /users/{userId}, which this endpoint does not declare.
    await requireHostId(ctx, 'me');
    const readsUser: (v2: V2Api<typeof V2.users.get>) => Promise<unknown> = (v2) => v2.get(V2.users.get.at('me'));
    // @ts-expect-error -- nor a client of its own routes to a helper over another.
    await readsUser(ctx.v2);
    return {};
  },
});

/** Routes typed only `V2Route` would give handle a client of every route: refused where declared. */
const anyRoutes: V2Route[] = [V2.users.get];
export const widened = defineEndpoint({
  path: '/test/widened',
  params,
  // @ts-expect-error -- a list of any routes, not routes of the catalogue each of its own type.
  v2Calls: anyRoutes,
  handle: () => Promise.resolve({}),
});

/** An endpoint that declares nothing calls nothing (/user/checkzpk). */
export const declaresNothing = defineEndpoint({
  path: '/test/nothing',
  params,
  v2Calls: [],
  async handle(_params, ctx) {
    // @ts-expect-error -- no route is declared.
    await ctx.v2.get(V2.users.get.at('me'));
    return {};
  },
});

/** A call's answer is its route's row of the answer table: typed by it, and no schema of the call's own. */
export const answers = defineEndpoint({
  path: '/test/answers',
  params,
  v2Calls: [V2.users.get, V2.groups.list],
  async handle(_params, ctx) {
    const user: V2User = await ctx.v2.get(V2.users.get.at('me'));
    // @ts-expect-error -- a wrong answer type: GET /groups answers a list of groups, not a user.
    const notUser: V2User = await ctx.v2.get(V2.groups.list.at());
    // @ts-expect-error -- a field no translator reads of a user is not in its answer's type as a string.
    const pmi: string = user.pmi;
    // @ts-expect-error -- a call names no schema: the table's row is the only one.
    await ctx.v2.get(V2.users.get.at('me'), z.object({ id: z.string() }));
    return { user, notUser, pmi };
  },
});

/**
 * The answer table holds every route of `V2` and nothing else (its `satisfies` in table.ts): shown
 * here on copies with a row taken out, a row added, and a schema where v2 answers nothing.
 */
type Rows = { readonly [Name in V2RouteName]: unknown };
const { ['GET /users/{userId}']: _taken, ...withoutOne } = V2_ANSWERS;
// @ts-expect-error -- a route of V2 without its row.
export const missingRow: Rows = withoutOne;
export const extraRow = {
  ...V2_ANSWERS,
  // @ts-expect-error -- a row for a route V2 does not have.
  'GET /users/{userId}/nothing': NO_CONTENT,
} satisfies Rows;
type NoAnswer<Name extends V2RouteName> = Name extends `${'GET' | 'POST'} ${string}` ? unknown : typeof NO_CONTENT;
export const schemaForNothing = {
  ...V2_ANSWERS,
  // @ts-expect-error -- a PATCH answers nothing: its row is NO_CONTENT, never a schema.
  'PATCH /users/{userId}': z.object({ id: z.string() }),
} satisfies { readonly [Name in V2RouteName]: NoAnswer<Name> };

/** The answer type follows the route's name: a user for GET /users/{userId}. */
export const userAnswer: V2Answer<'GET /users/{userId}'> = { id: 'u', email: 'u@example.com' };
// @ts-expect-error -- GET /users/{userId} answers a user, which names its id.
export const userWithoutId: V2Answer<'GET /users/{userId}'> = { email: 'u@example.com' };
