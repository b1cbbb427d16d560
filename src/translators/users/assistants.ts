import { V2 } from '../../v2-contract/v2-routes.js';
import { defineEndpoint, type TranslatorContext } from '../kit/define.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { idOrEmail, userId } from './user-params.js';

/**
 * Assistants (users who may schedule for a host) and the reverse list. The host is named by id or
 * host_email (id wins) and read first: the answers carry both, and an unknown host answers 1001
 * before anything is written.
 */

const hostParams = { id: userId().optional(), host_email: v1.email().optional() };

const readHost = (ctx: TranslatorContext<typeof V2.users.get>, id: string | undefined, hostEmail: string | undefined) =>
  ctx.v2.get(V2.users.get.at(idOrEmail(id, hostEmail, 'host_email')));

/** /user/assistant/set: adds the assistant (v2 keeps the host's other assistants; see docs/decisions.md). */
export const userAssistantSet = defineEndpoint({
  path: '/user/assistant/set',
  params: v1Params({ ...hostParams, assistant_email: v1.email() }),
  v2Calls: [V2.users.get, V2.users.addAssistants],
  v2Naming: { overrides: { assistants: 'assistant_email' } },
  async handle({ id, host_email, assistant_email }, ctx) {
    const host = await readHost(ctx, id, host_email);
    await ctx.v2.post(V2.users.addAssistants.at(host.id), { assistants: [{ email: assistant_email }] });
    return { id: host.id, host_email: host.email, updated_at: ctx.nowIso() };
  },
});

/** /user/assistant/delete: every assistant of the host. */
export const userAssistantDelete = defineEndpoint({
  path: '/user/assistant/delete',
  params: v1Params(hostParams),
  v2Calls: [V2.users.get, V2.users.deleteAssistants],
  async handle({ id, host_email }, ctx) {
    const host = await readHost(ctx, id, host_email);
    await ctx.v2.delete(V2.users.deleteAssistants.at(host.id));
    return { id: host.id, host_email: host.email, updated_at: ctx.nowIso() };
  },
});

/**
 * /user/scheduleforhost/list: GET /users/{userId}/schedulers names them; their names come from each
 * user, read in parallel. The service's own Node binding (npm zoomus, `user.schedulers`) posts to
 * /user/scheduleforhost, without /list: the only scheduleforhost call there is (docs/live-evidence.md).
 */
export const userScheduleForHostList = defineEndpoint({
  path: '/user/scheduleforhost/list',
  aliases: ['/user/scheduleforhost'],
  params: v1Params(hostParams),
  v2Calls: [V2.users.schedulers, V2.users.get],
  async handle({ id, host_email }, ctx) {
    const { assistants } = await ctx.v2.get(V2.users.schedulers.at(idOrEmail(id, host_email, 'host_email')));
    const users = await Promise.all(assistants.map((ref) => ctx.v2.get(V2.users.get.at(ref.id))));
    return {
      total_records: users.length,
      users: users.map((user) => ({ id: user.id, email: user.email, first_name: user.first_name, last_name: user.last_name })),
    };
  },
});
