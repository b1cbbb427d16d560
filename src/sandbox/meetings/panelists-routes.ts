import type { SandboxApp, SandboxContext } from '../context.js';
import { notFound, V2Code } from '../errors.js';
import { apiCredential, opaqueId } from '../ids.js';
import type { Meeting, Panelist } from '../model/meeting.js';
import { readBody } from '../validation.js';
import { WEBINAR } from './kinds.js';
import { requireSession } from './lookup.js';
import { renderPanelist } from './present.js';
import { panelistsSchema } from './schemas.js';

/** Webinar panelists: list, add, remove one, remove all. */
export function registerPanelistRoutes(app: SandboxApp, ctx: SandboxContext): void {
  const path = '/webinars/:id/panelists';

  app.get(path, (c) => {
    const { meeting } = requireSession(c, ctx, WEBINAR);
    return c.json({ total_records: meeting.panelists.length, panelists: meeting.panelists.map(renderPanelist) });
  });

  app.post(path, async (c) => {
    const { meeting } = requireSession(c, ctx, WEBINAR);
    const { panelists } = await readBody(c, panelistsSchema);
    const added = panelists.map((p) => addPanelist(meeting, p, ctx.publicUrl));
    // One id and join url answer the whole call: the ids of the panelists, comma-separated (as the
    // other batch adds answer `ids`), and the first panelist's join url.
    return c.json({ id: added.map((p) => p.id).join(','), join_url: added[0]!.join_url }, 201);
  });

  app.delete(path, (c) => {
    const { meeting } = requireSession(c, ctx, WEBINAR);
    meeting.panelists = [];
    return c.body(null, 204);
  });

  app.delete(`${path}/:panelistId`, (c) => {
    const { meeting } = requireSession(c, ctx, WEBINAR);
    const panelistId = c.req.param('panelistId');
    const remaining = meeting.panelists.filter((p) => p.id !== panelistId);
    if (remaining.length === meeting.panelists.length) throw notFound(V2Code.panelistNotFound, `Panelist not found: ${panelistId}.`);
    meeting.panelists = remaining;
    return c.body(null, 204);
  });
}

/** A panelist is one per email: adding a known email again renames that panelist and keeps its id and link. */
function addPanelist(meeting: Meeting, input: { name: string; email: string }, publicUrl: string): Panelist {
  const existing = meeting.panelists.find((p) => p.email.toLowerCase() === input.email.toLowerCase());
  if (existing) {
    existing.name = input.name;
    return existing;
  }
  const panelist: Panelist = {
    id: opaqueId(),
    name: input.name,
    email: input.email,
    join_url: `${publicUrl}/w/${meeting.id}?tk=${apiCredential(32)}`,
  };
  meeting.panelists.push(panelist);
  return panelist;
}
