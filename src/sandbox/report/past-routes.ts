import { z } from 'zod';
import type { SandboxApp, SandboxContext } from '../context.js';
import type { MeetingKind } from '../model/meeting.js';
import { readQuery } from '../validation.js';
import { endedInstancesOf, requireEndedInstanceByUuid } from './instance-lookup.js';
import { renderInstanceRef, renderPastMeeting, renderPastParticipant } from './render.js';
import { pageBody, tokenPagingQuery, type NextPageTokens } from '../paging.js';

const participantsQuery = z.object(tokenPagingQuery);

/** Ended meetings and webinars: /past_meetings/{meetingUUID}[/participants], /past_{meetings|webinars}/{id}/instances. */
export function registerPastRoutes(app: SandboxApp, { state }: SandboxContext, pages: NextPageTokens): void {
  app.get('/past_meetings/:meetingUUID', (c) => {
    const { meeting, instance } = requireEndedInstanceByUuid(state, c.var.account, c.req.param('meetingUUID'), 'meeting');
    return c.json(renderPastMeeting(state, meeting, instance));
  });

  app.get('/past_meetings/:meetingUUID/participants', (c) => {
    const paging = readQuery(c, participantsQuery);
    const { instance } = requireEndedInstanceByUuid(state, c.var.account, c.req.param('meetingUUID'), 'meeting');
    const page = pages.page(`past_participants:${instance.uuid}`, instance.participants.map(renderPastParticipant), paging, 'omitted');
    return c.json(pageBody(page, 'participants'));
  });

  const instancesOf = (kind: MeetingKind, listKey: string, param: string) =>
    app.get(`/past_${listKey}/:${param}/instances`, (c) => {
      const meeting = state.requireMeeting(c.var.account, c.req.param(param) ?? '', kind);
      return c.json({ [listKey]: endedInstancesOf(meeting).map(renderInstanceRef) });
    });
  instancesOf('meeting', 'meetings', 'meetingId');
  instancesOf('webinar', 'webinars', 'webinarId');
}
