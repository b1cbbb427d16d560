import { z } from 'zod';
import { V2 } from '../../v2-contract/v2-routes.js';
import { batchesOf } from '../kit/batches.js';
import type { CreateFollowUp } from '../sessions/create.js';
import { v1 } from '../../v1/param-types.js';

/** v2 takes at most 30 panelists per POST. */
const V2_PANELISTS_PER_CALL = 30;

/** The v1 `panelists` form field: JSON `[{"name":"...","email":"..."}]`, checked before any v2 call. */
const panelistsParam = v1.json(
  z
    .array(
      z.object({
        name: z
          .string({ error: 'Each panelist needs a name.' })
          .min(1, 'Each panelist needs a name.')
          .max(64, 'A panelist name is at most 64 characters.'),
        email: z.email('Each panelist needs a valid email.').max(128),
      }),
      { error: 'Must be a JSON array of {"name", "email"}.' },
    )
    .min(1, 'Must name at least one panelist.'),
);

/**
 * /webinar/create's `panelists`: after the webinar exists, POST /webinars/{id}/panelists (in
 * batches of v2's 30). A failure deletes the new webinar (create.ts), so v1 sees all or nothing.
 */
export const addPanelistsAfterCreate: CreateFollowUp = {
  params: { panelists: panelistsParam.optional() },
  v2Calls: [V2.webinars.addPanelists],
  async run(params, session, ctx) {
    const panelists = params['panelists'] as z.output<typeof panelistsParam> | undefined;
    if (!panelists) return;
    for (const batch of batchesOf(panelists, V2_PANELISTS_PER_CALL)) {
      await ctx.v2.post(V2.webinars.addPanelists.at(session.id), { panelists: batch });
    }
  },
};

/** `/webinar/update` takes no panelists (docs/decisions.md): a call sending them gets a 300, not a silent drop. */
export const panelistsNotOnUpdate = z
  .unknown()
  .refine(() => false, 'Panelists are set on /webinar/create; /webinar/update does not change them.')
  .optional();
