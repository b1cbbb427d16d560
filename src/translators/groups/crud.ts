import { answerAfterWrite, startedEarly } from '../kit/after-write.js';
import { inputShape, toV2, toV2WithDefaults } from '../../v1/field-map.js';
import { defineEndpoint, type TranslatorContext } from '../kit/define.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { everyPage, V2_MAX_PAGE_SIZE } from '../kit/v2-paging.js';
import { CALLER_ACCOUNT_CALL, callerAccountId, v1Group } from './group-output.js';
import type { GroupKind } from './kind.js';

/**
 * Create, list, get, edit and delete of groups and IM groups: one factory per call, applied to
 * each kind in index.ts.
 */

/** `{v1Prefix}/create` → POST {v2Base}: the v1 defaults of the kind's table filled in; name required. */
export function groupCreate(kind: GroupKind) {
  const shape = inputShape(kind.table);
  return defineEndpoint({
    path: `${kind.v1Prefix}/create`,
    params: v1Params({ ...shape, name: v1.string() }),
    v2Calls: [kind.v2.create, CALLER_ACCOUNT_CALL],
    tables: [kind.table],
    async handle(params, ctx) {
      const body = toV2WithDefaults(kind.table, params);
      const accountId = startedEarly(callerAccountId(ctx));
      return answerAfterWrite(
        ctx.v2.post(kind.v2.create.at(), body),
        async (created) => v1Group(kind.table, kind.answer, created, await accountId),
        (created) => `The ${kind.label} ${created.id} was created`,
      );
    },
  });
}

/** A page of either kind's list: GET /groups answers every group at once, GET /im/groups by pages. */
type GroupPage = { total_records: number; groups: unknown[]; next_page_token?: string | undefined };

/** Every group of the kind; IM groups come from v2 in pages, read in full (v1's list has no paging). */
async function allGroups(
  kind: GroupKind,
  ctx: TranslatorContext<GroupKind['v2']['list']>,
): Promise<{ total_records: number; groups: unknown[] }> {
  if (!kind.pagedList) return ctx.v2.get(kind.v2.list.at());
  const pages = await everyPage<GroupPage>((token) => ctx.v2.get(kind.v2.list.at(), { page_size: V2_MAX_PAGE_SIZE, ...token }));
  return { total_records: pages[0]!.total_records, groups: pages.flatMap((page) => page.groups) };
}

/** `{v1Prefix}/list` → GET {v2Base}: `total_records` and every group. */
export function groupList(kind: GroupKind) {
  return defineEndpoint({
    path: `${kind.v1Prefix}/list`,
    params: v1Params({}),
    v2Calls: [kind.v2.list, CALLER_ACCOUNT_CALL],
    tables: [kind.listItemTable],
    async handle(_params, ctx) {
      const [list, accountId] = await Promise.all([allGroups(kind, ctx), callerAccountId(ctx)]);
      return {
        total_records: list.total_records,
        groups: list.groups.map((g) => v1Group(kind.listItemTable, kind.listItemAnswer, g, accountId)),
      };
    },
  });
}

/** `{v1Prefix}/get` → GET {v2Base}/{groupId}. */
export function groupGet(kind: GroupKind) {
  return defineEndpoint({
    path: `${kind.v1Prefix}/get`,
    params: v1Params({ id: v1.id() }),
    v2Calls: [kind.v2.get, CALLER_ACCOUNT_CALL],
    tables: [kind.table],
    async handle({ id }, ctx) {
      const [group, accountId] = await Promise.all([ctx.v2.get(kind.v2.get.at(id)), callerAccountId(ctx)]);
      return v1Group(kind.table, kind.answer, group, accountId);
    },
  });
}

/**
 * `{v1Prefix}/edit` → PATCH {v2Base}/{groupId} with the fields given (no v1 defaults: an edit
 * changes only what it names), then GET it for the v1 group output.
 */
export function groupEdit(kind: GroupKind) {
  return defineEndpoint({
    path: `${kind.v1Prefix}/edit`,
    params: v1Params({ ...inputShape(kind.table), id: v1.id() }),
    v2Calls: [kind.v2.update, kind.v2.get, CALLER_ACCOUNT_CALL],
    tables: [kind.table],
    async handle(params, ctx) {
      const changes = toV2(kind.table, params);
      if (Object.keys(changes).length === 0) {
        const [group, accountId] = await Promise.all([ctx.v2.get(kind.v2.get.at(params.id)), callerAccountId(ctx)]);
        return v1Group(kind.table, kind.answer, group, accountId);
      }
      const accountId = startedEarly(callerAccountId(ctx));
      return answerAfterWrite(
        ctx.v2.patch(kind.v2.update.at(params.id), changes),
        async () => {
          const [group, account] = await Promise.all([ctx.v2.get(kind.v2.get.at(params.id)), accountId]);
          return v1Group(kind.table, kind.answer, group, account);
        },
        () => `The ${kind.label} ${params.id} was edited`,
      );
    },
  });
}

/** `{v1Prefix}/delete` → DELETE {v2Base}/{groupId}; `deleted_count` counts the groups deleted (1), as v1's example. */
export function groupDelete(kind: GroupKind) {
  return defineEndpoint({
    path: `${kind.v1Prefix}/delete`,
    params: v1Params({ id: v1.id() }),
    v2Calls: [kind.v2.delete],
    async handle({ id }, ctx) {
      await ctx.v2.delete(kind.v2.delete.at(id));
      return { id, deleted_at: ctx.nowIso(), deleted_count: 1 };
    },
  });
}
