import { z } from 'zod';
import type { Context } from 'hono';
import type { SandboxApp, SandboxContext, SandboxEnv } from '../context.js';
import { notFound, V2Code } from '../errors.js';
import type { Account } from '../model/account.js';
import type { MeetingKind, Participant } from '../model/meeting.js';
import { pageBody, pagingQuery, type NextPageTokens } from '../paging.js';
import type { SandboxState } from '../state.js';
import { queryInt, readQuery } from '../validation.js';
import { renderDashboardParticipant, renderParticipantQos } from './dashboard-render.js';
import { decodeUuidParam, endedInstancesOf, type InstanceOf } from './instance-lookup.js';
import { renderSessionMetric } from './render.js';

/**
 * One dashboard session and its people: GET /metrics/{meetings|webinars}/{id}, its
 * `/participants`, `/participants/qos` and `/participants/{participantId}/qos`. `{id}` is a
 * number (the live instance for `type=live`, else the latest ended one) or an instance uuid.
 */

const DETAIL_KINDS: readonly { kind: MeetingKind; collection: 'meetings' | 'webinars' }[] = [
  { kind: 'meeting', collection: 'meetings' },
  { kind: 'webinar', collection: 'webinars' },
];

const typeQuery = { type: z.enum(['live', 'past', 'pastOne'], { error: 'Must be live, past or pastOne.' }).default('live') };
const participantsQuery = z.object({ ...typeQuery, page_size: pagingQuery.shape.page_size, next_page_token: z.string().optional() });
/** The QoS list pages by one participant (at most 10): each carries a sample. */
const qosQuery = z.object({ ...typeQuery, page_size: queryInt(1, 10).optional(), next_page_token: z.string().optional() });
const oneQosQuery = z.object(typeQuery);

function sessionNotFound(kind: MeetingKind, ref: string, live: boolean) {
  const what = kind === 'webinar' ? 'Webinar' : 'Meeting';
  return notFound(
    kind === 'webinar' ? V2Code.webinarNotFound : V2Code.meetingNotFound,
    `${what} ${ref} not found or not ${live ? 'live' : 'ended'}.`,
  );
}

function requireSession(state: SandboxState, account: Account, rawRef: string, kind: MeetingKind, type: string): InstanceOf {
  const ref = decodeUuidParam(rawRef);
  const live = type === 'live';
  if (/^\d{1,16}$/.test(ref)) {
    const meeting = state.findMeeting(account, ref, kind);
    const instance = meeting && (live ? meeting.live : endedInstancesOf(meeting).at(-1));
    if (!meeting || !instance) throw sessionNotFound(kind, ref, live);
    return { meeting, instance };
  }
  const found = state.instancesByUuid.get(ref);
  const ok = found && found.meeting.kind === kind && found.meeting.account_id === account.id && (found.instance.end_time === null) === live;
  if (!ok) throw sessionNotFound(kind, ref, live);
  return found;
}

/** Who was in the session: everyone for a past one, who is in now for a live one. */
const peopleOf = ({ instance }: InstanceOf): Participant[] =>
  instance.end_time === null ? instance.participants.filter((p) => p.leave_time === null) : instance.participants;

export function registerMetricsDetailRoutes(app: SandboxApp, { state }: SandboxContext, pages: NextPageTokens): void {
  for (const { kind, collection } of DETAIL_KINDS) {
    const base = `/metrics/${collection}/:id`;
    const session = (c: Context<SandboxEnv>, type: string) => requireSession(state, c.var.account, c.req.param('id') ?? '', kind, type);

    app.get(base, (c) => {
      const q = readQuery(c, oneQosQuery);
      const { meeting, instance } = session(c, q.type);
      return c.json(renderSessionMetric(state, meeting, instance));
    });

    app.get(`${base}/participants`, (c) => {
      const q = readQuery(c, participantsQuery);
      const found = session(c, q.type);
      const page = pages.page(`dashboard_participants:${found.instance.uuid}:${q.type}`, peopleOf(found), q);
      return c.json(pageBody({ ...page, items: page.items.map(renderDashboardParticipant) }, 'participants'));
    });

    app.get(`${base}/participants/qos`, (c) => {
      const q = readQuery(c, qosQuery);
      const found = session(c, q.type);
      const page = pages.page(`dashboard_qos:${found.instance.uuid}:${q.type}`, peopleOf(found), { ...q, page_size: q.page_size ?? 1 });
      return c.json(pageBody({ ...page, items: page.items.map(renderParticipantQos) }, 'participants'));
    });

    app.get(`${base}/participants/:participantId/qos`, (c) => {
      const q = readQuery(c, oneQosQuery);
      const found = session(c, q.type);
      // The participant's id, or the user id it joined as (v1 asks by user id).
      const ref = c.req.param('participantId');
      const participant = peopleOf(found).find((p) => p.id === ref) ?? peopleOf(found).find((p) => p.user_id === ref);
      if (!participant) throw notFound(V2Code.meetingNotFound, `Participant ${ref} not found in ${found.instance.uuid}.`);
      return c.json(renderParticipantQos(participant));
    });
  }
}
