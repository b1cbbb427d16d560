import type { z } from 'zod';
import type { V2 } from '../../v2-contract/v2-routes.js';
import { defineEndpoint, type TranslatorContext } from '../kit/define.js';
import { Rollback } from '../kit/rollback.js';
import { v2SessionBody } from './body.js';
import type { SessionKind } from './kinds.js';
import { SESSION_V2_NAMING, createParams } from './params.js';
import { renderSession } from './render.js';
import { type V2Session } from '../kit/v2-answers/sessions.js';

/** More v2 writes a kind's create makes after the session exists (webinar panelists). */
export interface CreateFollowUp {
  params: Record<string, z.ZodType>;
  v2Calls: readonly FollowUpRoute[];
  /** Runs after the create; if it fails, the new session is deleted and its error answered. */
  run(params: Record<string, unknown>, session: V2Session, ctx: TranslatorContext<FollowUpRoute>): Promise<void>;
}

/** The routes a follow-up may call: a kind's create declares those of its own follow-up. */
type FollowUpRoute = typeof V2.webinars.addPanelists;

/**
 * /meeting/create, /webinar/create → POST /users/{host_id}/{meetings|webinars} with v1's defaults
 * for what the call omits. An unknown host is v2's 1001. A follow-up write that fails undoes the
 * create (no half-done work).
 */
export function createEndpoint(kind: SessionKind, followUp?: CreateFollowUp) {
  return defineEndpoint({
    path: `/${kind.noun}/create`,
    params: createParams(kind, followUp?.params),
    v2Calls: [kind.v2.create, ...(followUp?.v2Calls ?? [])],
    v2Undo: followUp ? [kind.v2.delete] : [],
    tables: [kind.table],
    v2Naming: SESSION_V2_NAMING,
    async handle(given, ctx) {
      const hostId = given.host_id;
      const session = await ctx.v2.post(kind.v2.create.at(hostId), v2SessionBody(kind, given, { create: true }));
      if (followUp) {
        const rollback = new Rollback(ctx);
        rollback.onFailure(`the ${kind.noun} ${session.id} was created`, (v2) => v2.delete(kind.v2.delete.at(session.id)));
        await rollback.run(() => followUp.run(given, session, ctx));
      }
      // A session just created is not in progress (an instant meeting waits for its host to start it).
      return renderSession(kind, 'create', session, false);
    },
  });
}
