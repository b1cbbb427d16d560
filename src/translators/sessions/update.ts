import type { z } from 'zod';
import { SESSION_ACTION_ANSWERS } from '../../../mappings/session-answers.js';
import { answer } from '../../v1/answer.js';
import { defineEndpoint } from '../kit/define.js';
import { v2SessionBody } from './body.js';
import { OWN_SESSION_CALLS, requireOwnSession } from './host-check.js';
import type { SessionKind } from './kinds.js';
import { SESSION_V2_NAMING, updateParams } from './params.js';

/**
 * /meeting/update, /webinar/update → (host check) PATCH /{meetings|webinars}/{id} with only the
 * fields given; no v1 defaults (an update changes what it names). Without `type` the session keeps
 * its own: clients send an update with `id` and `host_id` and the fields that change, as the
 * service's own sample did (docs/live-evidence.md); a default type would reschedule a series. A type change is v2's own
 * reschedule: to a fixed-time series it needs a recurrence (given now or kept from before; else
 * v2's 400 on recurrence is v1's 300 naming recurrence), to a series with no fixed time the start
 * time goes, to a one-time meeting the occurrences go.
 */
export function updateEndpoint(kind: SessionKind, opts: { refused?: Record<string, z.ZodType> } = {}) {
  return defineEndpoint({
    path: `/${kind.noun}/update`,
    params: updateParams(kind, opts.refused),
    v2Calls: [...OWN_SESSION_CALLS(kind), kind.v2.update],
    tables: [kind.table],
    v2Naming: SESSION_V2_NAMING,
    async handle(given, ctx) {
      const session = await requireOwnSession(ctx, kind, given.id, given.host_id);
      await ctx.v2.patch(kind.v2.update.at(session.id), v2SessionBody(kind, given, { create: false }));
      return answer(SESSION_ACTION_ANSWERS.updated, { id: session.id, updated_at: ctx.nowIso() });
    },
  });
}
