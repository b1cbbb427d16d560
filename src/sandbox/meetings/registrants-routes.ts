import type { SandboxApp, SandboxContext } from '../context.js';
import { registrantAdds, registrantStatusChanges } from '../rate-limit.js';
import { pageBody, type NextPageTokens } from '../paging.js';
import { readBody, readQuery } from '../validation.js';
import type { KindSpec } from './kinds.js';
import { requireSession } from './lookup.js';
import { findOccurrence, findOccurrences } from './occurrences.js';
import { renderRegistrant } from './present.js';
import { changeStatus, register, registrantsFor, requireRegistration } from './registrants.js';
import { occurrenceQuery, registerQuery, registrantListQuery, registrantSchema, registrantStatusSchema } from './schemas.js';

/** GET and POST .../registrants and PUT .../registrants/status, for meetings or webinars. */
export function registerRegistrantRoutes(app: SandboxApp, ctx: SandboxContext, spec: KindSpec, pages: NextPageTokens): void {
  const { state, publicUrl, limiter } = ctx;
  const path = `/${spec.collection}/:id/registrants`;

  app.get(path, (c) => {
    const { meeting } = requireSession(c, ctx, spec);
    const query = readQuery(c, registrantListQuery);
    if (query.occurrence_id !== undefined) findOccurrence(meeting, query.occurrence_id, 'occurrence_id');
    const matching = registrantsFor(meeting, query.occurrence_id).filter((r) => r.status === query.status);
    // The spec gives this list both pagings: it takes page_number and answers a next_page_token; today neither page_count nor page_number.
    const scope = `${spec.collection}_registrants:${meeting.id}:${query.status}:${query.occurrence_id ?? ''}`;
    const page = pages.page(scope, matching, query, 'omitted');
    return c.json(pageBody({ ...page, items: page.items.map(renderRegistrant) }, 'registrants'));
  });

  app.post(path, async (c) => {
    const { meeting } = requireSession(c, ctx, spec);
    const { occurrence_ids } = readQuery(c, registerQuery);
    const input = await readBody(c, registrantSchema);
    requireRegistration(spec, meeting);
    const occurrences = findOccurrences(meeting, occurrence_ids, 'occurrence_ids');
    // A registrant's own daily count, spent by a valid add (repeated or not), as the service counts it.
    limiter?.spendResourceDay(c.get('account').id, registrantAdds(spec.kind, meeting.id, input.email), state.now().getTime());
    const registrant = register(meeting, input, occurrences, { nowIso: state.nowIso(), publicUrl });
    const firstOccurrence = meeting.occurrences.find((o) => registrant.occurrence_ids.includes(o.occurrence_id));
    const start_time = firstOccurrence?.start_time ?? meeting.start_time;
    return c.json(
      {
        registrant_id: registrant.id,
        id: meeting.id,
        topic: meeting.topic,
        ...(start_time ? { start_time } : {}),
        join_url: registrant.join_url,
      },
      201,
    );
  });

  app.put(`${path}/status`, async (c) => {
    const { meeting } = requireSession(c, ctx, spec);
    const { occurrence_id } = readQuery(c, occurrenceQuery);
    const body = await readBody(c, registrantStatusSchema);
    if (occurrence_id !== undefined) findOccurrence(meeting, occurrence_id, 'occurrence_id');
    for (const r of body.registrants ?? []) {
      const who = r.email ?? r.id ?? '';
      limiter?.spendResourceDay(c.get('account').id, registrantStatusChanges(spec.kind, meeting.id, who), state.now().getTime());
    }
    changeStatus(meeting, body.action, body.registrants, occurrence_id);
    return c.body(null, 204);
  });
}
