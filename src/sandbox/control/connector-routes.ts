import type { Hono } from 'hono';
import { z } from 'zod';
import type { SandboxContext } from '../context.js';
import { conflict, notFound, V2Code } from '../errors.js';
import { endedInstancesOf } from '../report/instance-lookup.js';
import { readBody } from '../validation.js';
import { renderInstance } from './render.js';

/**
 * A meeting connector (the service's meeting server on the account's own premises) recorded a
 * session: the sandbox runs none, so the control API says so.
 *
 * POST /sandbox/meetings/{id}/meeting-connector-recording  body {uuid?} → 200 instance
 *      The recording of the ended instance `uuid` (the latest one by default) was made by the
 *      meeting connector: it moves from the cloud list (GET /users/{userId}/recordings) to the
 *      connector's (`mc=true`). 409 when that instance has no recording files.
 */

const connectorBody = z.strictObject({ uuid: z.string().min(1).optional() });

export function registerConnectorControlRoutes(app: Hono, { state }: SandboxContext): void {
  app.post('/meetings/:id/meeting-connector-recording', async (c) => {
    const id = c.req.param('id');
    const meeting = /^\d{1,16}$/.test(id) ? state.meetings.get(Number(id)) : undefined;
    if (!meeting) throw notFound(V2Code.meetingNotFound, `Meeting or webinar ${id} not found.`);
    const { uuid } = await readBody(c, connectorBody, { allowEmpty: true });
    const ended = endedInstancesOf(meeting);
    const instance = uuid ? ended.find((i) => i.uuid === uuid) : ended.at(-1);
    if (!instance) throw notFound(V2Code.meetingNotFound, `No ended session ${uuid ?? ''} of ${id}.`.replace('  ', ' '));
    if (instance.recording_files.length === 0) throw conflict(V2Code.meetingNotFound, `Session ${instance.uuid} has no recording.`);
    instance.recorded_by_connector = true;
    return c.json(renderInstance(meeting, instance));
  });
}
