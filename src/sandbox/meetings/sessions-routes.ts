import type { SandboxApp, SandboxContext } from '../context.js';
import { pageBody, paginate } from '../paging.js';
import { endLiveInstance } from '../report/lifecycle.js';
import { readBody, readQuery } from '../validation.js';
import type { KindSpec } from './kinds.js';
import { filterSessions } from './listing.js';
import { requireSession, sessionsOf } from './lookup.js';
import { findOccurrence } from './occurrences.js';
import { renderFull, renderListItem } from './present.js';
import { occurrenceQuery } from './schemas.js';
import { createSession, updateSession } from './session.js';

/** List, create, read, update, delete and end meetings or webinars (one kind per call). */
export function registerSessionRoutes(app: SandboxApp, ctx: SandboxContext, spec: KindSpec): void {
  const { state, publicUrl } = ctx;
  const base = `/${spec.collection}/:id`;

  app.get(`/users/:userId/${spec.collection}`, (c) => {
    const host = state.requireUser(c.get('account'), c.req.param('userId'));
    const { type } = readQuery(c, spec.listQuery);
    const all = sessionsOf(ctx, host, spec);
    const sessions = type ? filterSessions(all, type, spec, state.now().getTime()) : all;
    const page = paginate(c, state.pages, `${spec.collection}:${host.id}:${type ?? ''}`, sessions, 'omitted');
    return c.json(pageBody({ ...page, items: page.items.map((m) => renderListItem(spec, m)) }, spec.collection));
  });

  app.post(`/users/:userId/${spec.collection}`, async (c) => {
    const account = c.get('account');
    const host = state.requireUser(account, c.req.param('userId'));
    const body = await readBody(c, spec.createSchema);
    const meeting = createSession(body, host, { spec, state, account, publicUrl });
    return c.json(renderFull(spec, meeting), 201);
  });

  app.get(base, (c) => c.json(renderFull(spec, requireSession(c, ctx, spec).meeting)));

  app.patch(base, async (c) => {
    const { meeting, host } = requireSession(c, ctx, spec);
    const body = await readBody(c, spec.updateSchema, { allowEmpty: true });
    updateSession(meeting, body, host, { spec, state, account: c.get('account'), publicUrl });
    return c.body(null, 204);
  });

  app.delete(base, (c) => {
    const { meeting } = requireSession(c, ctx, spec);
    const { occurrence_id } = readQuery(c, occurrenceQuery);
    if (occurrence_id !== undefined) {
      const occurrence = findOccurrence(meeting, occurrence_id, 'occurrence_id');
      occurrence.status = 'deleted';
      return c.body(null, 204);
    }
    // A session deleted while in progress ends first, so its instance is not left live forever.
    endLiveInstance(state, meeting);
    state.meetings.delete(meeting.id);
    return c.body(null, 204);
  });

  app.put(`${base}/status`, async (c) => {
    const { meeting } = requireSession(c, ctx, spec);
    const { end } = await readBody(c, spec.statusSchema, { allowEmpty: true });
    // Ending a session that is not live has nothing to do; the service answers it with success all the same.
    if (end) endLiveInstance(state, meeting);
    return c.body(null, 204);
  });
}
