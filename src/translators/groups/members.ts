import { GROUP_MEMBER_ANSWER, GROUP_MEMBER_ROWS } from '../../../mappings/groups.js';
import { answer } from '../../v1/answer.js';
import { V2Error } from '../../upstream/errors.js';
import { batchesOf } from '../kit/batches.js';
import { defineEndpoint, type TranslatorContext, type V2Api } from '../kit/define.js';
import { toV1 } from '../../v1/field-map.js';
import { Rollback } from '../kit/rollback.js';
import { v1, v1Params } from '../../v1/param-types.js';
import type { GroupKind } from './kind.js';
import { pageOf, pagingOf, v1PageFields, v1PagingParams } from '../../v1/paging.js';
import { everyPage, V2_MAX_PAGE_SIZE } from '../kit/v2-paging.js';
import { v1PageOfTokens } from '../kit/token-walk.js';

/** v2 takes at most 30 members per POST members call. */
export const MEMBERS_PER_CALL = 30;

/** v1 `member_ids`: a comma list of user ids, of any length; each id counts once. */
const memberIds = () => v1.list().transform((ids) => [...new Set(ids)]);

const isGroupNotFound = (error: unknown) => error instanceof V2Error && error.status === 404 && error.code === 4130;
const isNotAMember = (error: unknown) => error instanceof V2Error && error.status === 404 && error.code === 1001;

/**
 * Run `call` against the first kind; while v2 answers 404 4130 (no such group), try the next one.
 * /group/member/add serves plain groups and IM groups with one path (see docs/decisions.md).
 */
async function onFirstKindThatHasIt<T>(
  kinds: readonly GroupKind[],
  call: (kind: GroupKind) => Promise<T>,
): Promise<{ kind: GroupKind; result: T }> {
  for (const [i, kind] of kinds.entries()) {
    try {
      return { kind, result: await call(kind) };
    } catch (error) {
      if (i === kinds.length - 1 || !isGroupNotFound(error)) throw error;
    }
  }
  throw new Error('onFirstKindThatHasIt needs at least one kind');
}

/** Every member id of a group, read 300 at a time. */
async function allMemberIds(kind: GroupKind, ctx: TranslatorContext<GroupKind['v2']['members']>, id: string): Promise<Set<string>> {
  const members = kind.v2.members.at(id);
  const pages = await everyPage((token) => ctx.v2.get(members, { page_size: V2_MAX_PAGE_SIZE, ...token }));
  return new Set(pages.flatMap((page) => page.members.map((m) => m.id)));
}

async function addBatch(
  kind: GroupKind,
  v2: V2Api<GroupKind['v2']['addMembers']>,
  id: string,
  batch: readonly string[],
): Promise<string[]> {
  const answer = await v2.post(kind.v2.addMembers.at(id), { members: batch.map((memberId) => ({ id: memberId })) });
  return answer.ids.split(',').filter(Boolean);
}

async function removeMembers(
  kind: GroupKind,
  v2: V2Api<GroupKind['v2']['removeMember']>,
  id: string,
  memberIdsToRemove: readonly string[],
): Promise<void> {
  await Promise.all(memberIdsToRemove.map((memberId) => v2.delete(kind.v2.removeMember.at(id, memberId))));
}

/** `{v1Prefix}/member/list` → GET {v2Base}/{groupId}/members, v1's page of members. */
export function memberList(kind: GroupKind) {
  return defineEndpoint({
    path: `${kind.v1Prefix}/member/list`,
    params: v1Params({ id: v1.id(), ...v1PagingParams }),
    v2Calls: [kind.v2.members],
    tables: [GROUP_MEMBER_ROWS],
    async handle(params, ctx) {
      const paging = pagingOf(params);
      const list = { target: kind.v2.members.at(params.id) };
      const page = await v1PageOfTokens(ctx, { ...list, itemsOf: (p) => p.members }, paging);
      return {
        ...v1PageFields(pageOf(paging, page.total_records)),
        members: page.items.map((m) => answer(GROUP_MEMBER_ANSWER, toV1(GROUP_MEMBER_ROWS, m))),
      };
    },
  });
}

/**
 * Member add → POST {v2Base}/{groupId}/members in batches of 30. One batch is all or nothing in v2.
 * With several, the members already in the group are read first, and if batch k fails the
 * members earlier batches added (and only those) are removed again. `kinds` lists the group kinds
 * the path serves, tried in order (/group/member/add: groups, then IM groups).
 */
export function memberAdd(path: string, kinds: readonly GroupKind[]) {
  return defineEndpoint({
    path,
    params: v1Params({ id: v1.id(), member_ids: memberIds() }),
    v2Calls: kinds.flatMap((kind) => [kind.v2.addMembers, kind.v2.members]),
    // A later batch that fails takes out the members the earlier ones added.
    v2Undo: kinds.map((kind) => kind.v2.removeMember),
    v2Naming: { overrides: { members: 'member_ids' } },
    async handle({ id, member_ids }, ctx) {
      const batches = batchesOf(member_ids, MEMBERS_PER_CALL);
      const rollback = new Rollback(ctx);
      let kind: GroupKind;
      let firstBatch: string[] | undefined;
      let existing = new Set<string>();
      if (batches.length > 1) {
        // Several batches: learn who is already a member (this also finds the group's kind).
        ({ kind, result: existing } = await onFirstKindThatHasIt(kinds, (k) => allMemberIds(k, ctx, id)));
      } else {
        ({ kind, result: firstBatch } = await onFirstKindThatHasIt(kinds, (k) => addBatch(k, ctx.v2, id, batches[0]!)));
      }
      const added = new Set(firstBatch ?? []);
      await rollback.run(async () => {
        for (const batch of firstBatch ? [] : batches) {
          const ids = await addBatch(kind, ctx.v2, id, batch);
          ids.forEach((memberId) => added.add(memberId));
          const newcomers = ids.filter((memberId) => !existing.has(memberId));
          rollback.onFailure(`${newcomers.length} member(s) added to ${kind.label} ${id}`, (v2) => removeMembers(kind, v2, id, newcomers));
        }
      });
      return { id, add_at: ctx.nowIso(), add_count: added.size };
    },
  });
}

/**
 * `{v1Prefix}/member/delete` → DELETE {v2Base}/{groupId}/members/{memberId}, one call per id.
 * An id that is not a member is skipped (`deleted_count` says how many were removed). Any other
 * failure puts back the members already removed and answers the error.
 */
export function memberDelete(kind: GroupKind) {
  return defineEndpoint({
    path: `${kind.v1Prefix}/member/delete`,
    params: v1Params({ id: v1.id(), member_ids: memberIds() }),
    v2Calls: [kind.v2.removeMember],
    // A failure puts back the members already removed.
    v2Undo: [kind.v2.addMembers],
    async handle({ id, member_ids }, ctx) {
      const outcomes = await Promise.allSettled(member_ids.map((memberId) => ctx.v2.delete(kind.v2.removeMember.at(id, memberId))));
      const removed = member_ids.filter((_, i) => outcomes[i]!.status === 'fulfilled');
      const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected' && !isNotAMember(o.reason));
      if (failure) {
        const rollback = new Rollback(ctx);
        rollback.onFailure(`${removed.length} member(s) removed from ${kind.label} ${id}`, (v2) =>
          Promise.all(batchesOf(removed, MEMBERS_PER_CALL).map((batch) => addBatch(kind, v2, id, batch))),
        );
        await rollback.run(() => Promise.reject(failure.reason));
      }
      return { id, deleted_at: ctx.nowIso(), deleted_count: removed.length };
    },
  });
}
