import type { Context, Hono } from 'hono';
import type { SandboxContext } from '../context.js';
import { badRequest, invalidField, notFound, V2Code } from '../errors.js';
import type { Meeting } from '../model/meeting.js';
import {
  attendeeBeforeHost,
  currentOrLatestInstance,
  endLiveInstance,
  joinParticipant,
  notLive,
  recordPollAnswer,
  recordQuestion,
  startInstance,
} from '../report/lifecycle.js';
import type { SandboxState } from '../state.js';
import { readBody } from '../validation.js';
import { happen } from './happening.js';
import { renderInstance } from './render.js';
import { endBody, happenBody, participantBody, startBody, surveyEntryBody } from './schemas.js';

/** A meeting or webinar of any account, by the number in the path. */
function pathMeeting(c: Context, state: SandboxState): Meeting {
  const id = c.req.param('id') ?? '';
  const meeting = /^\d{1,16}$/.test(id) ? state.meetings.get(Number(id)) : undefined;
  if (!meeting) throw notFound(V2Code.meetingNotFound, `Meeting or webinar ${id} not found.`);
  return meeting;
}

/** The control routes that make meetings and webinars happen (see routes.ts for the list). */
export function registerMeetingControlRoutes(app: Hono, { state }: SandboxContext): void {
  app.post('/meetings/:id/start', async (c) => {
    const meeting = pathMeeting(c, state);
    const body = await readBody(c, startBody, { allowEmpty: true });
    if (body.start_time && body.start_time > state.nowIso()) throw invalidField('start_time', 'Must not be in the future.');
    const instance = startInstance(state, meeting, body.start_time);
    return c.json(renderInstance(meeting, instance), 201);
  });

  /** An attendee arrives before the host starts: the v2 jbh_joined or jbh_waiting event. */
  app.post('/meetings/:id/attendee-before-host', (c) => {
    const meeting = pathMeeting(c, state);
    return c.json({ id: meeting.id, attendee: attendeeBeforeHost(state, meeting) }, 201);
  });

  app.post('/meetings/:id/participants', async (c) => {
    const meeting = pathMeeting(c, state);
    const body = await readBody(c, participantBody);
    const instance = meeting.live;
    if (!instance) throw notLive(meeting);
    const now = state.nowIso();
    const joinTime = body.join_time ?? now;
    if (joinTime < instance.start_time || joinTime > now) {
      throw invalidField('join_time', `Must be between the start (${instance.start_time}) and now (${now}).`);
    }
    const participant = joinParticipant(state, meeting, instance, { name: body.name, email: body.email, joinTime });
    return c.json({ uuid: instance.uuid, ...participant }, 201);
  });

  app.post('/meetings/:id/polls', async (c) => {
    const meeting = pathMeeting(c, state);
    const entry = await readBody(c, surveyEntryBody);
    const instance = currentOrLatestInstance(meeting);
    recordPollAnswer(instance, entry);
    return c.json({ uuid: instance.uuid, ...entry }, 201);
  });

  app.post('/meetings/:id/questions', async (c) => {
    const meeting = pathMeeting(c, state);
    const entry = await readBody(c, surveyEntryBody);
    if (meeting.kind !== 'webinar') throw badRequest(`Q&A is a webinar feature: ${meeting.id} is a meeting.`);
    const instance = currentOrLatestInstance(meeting);
    recordQuestion(instance, entry);
    return c.json({ uuid: instance.uuid, ...entry }, 201);
  });

  app.post('/meetings/:id/end', async (c) => {
    const meeting = pathMeeting(c, state);
    const body = await readBody(c, endBody, { allowEmpty: true });
    const instance = endLiveInstance(state, meeting, { recording: body.recording });
    if (!instance) throw notLive(meeting);
    return c.json(renderInstance(meeting, instance));
  });

  app.post('/meetings/:id/happen', async (c) => {
    const meeting = pathMeeting(c, state);
    const body = await readBody(c, happenBody, { allowEmpty: true });
    return c.json(renderInstance(meeting, happen(state, meeting, body)), 201);
  });
}
