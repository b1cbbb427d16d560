import { z } from 'zod';
import type { SandboxApp, SandboxContext } from '../context.js';
import type { Instance, MeetingKind } from '../model/meeting.js';
import { readQuery } from '../validation.js';
import { requireReportedInstance } from './instance-lookup.js';
import { renderReportParticipant, renderSurvey } from './render.js';
import { pageBody, tokenPagingQuery, type NextPageTokens } from '../paging.js';

const participantsQuery = z.object(tokenPagingQuery);

/** The path segment and path parameter of each kind's report endpoints. */
const REPORTED = {
  meeting: { segment: 'meetings', param: 'meetingId' },
  webinar: { segment: 'webinars', param: 'webinarId' },
} as const satisfies Record<MeetingKind, { segment: string; param: string }>;

/**
 * Reports on an ended meeting or webinar: /report/{meetings|webinars}/{id}/participants and
 * /polls, /report/webinars/{id}/qa. `{id}` is the number (its latest ended instance) or an instance uuid.
 */
export function registerReportRoutes(app: SandboxApp, { state }: SandboxContext, pages: NextPageTokens): void {
  for (const kind of ['meeting', 'webinar'] as const) {
    const { segment, param } = REPORTED[kind];
    const path = `/report/${segment}/:${param}`;

    app.get(`${path}/participants`, (c) => {
      const paging = readQuery(c, participantsQuery);
      const { meeting, instance } = requireReportedInstance(state, c.var.account, c.req.param(param) ?? '', kind);
      const items = instance.participants.map((p) => renderReportParticipant(meeting, p));
      return c.json(pageBody(pages.page(`report_participants:${instance.uuid}`, items, paging, 'omitted'), 'participants'));
    });

    const survey = (subpath: string, entriesOf: (instance: Instance) => Parameters<typeof renderSurvey>[2]) =>
      app.get(`${path}/${subpath}`, (c) => {
        const { meeting, instance } = requireReportedInstance(state, c.var.account, c.req.param(param) ?? '', kind);
        return c.json(renderSurvey(meeting, instance, entriesOf(instance)));
      });
    survey('polls', (instance) => instance.polls);
    // Q&A is a webinar feature: meetings have no Q&A report.
    if (kind === 'webinar') survey('qa', (instance) => instance.questions);
  }
}
