import { z } from 'zod';
import type { SandboxApp, SandboxContext } from '../context.js';
import { notFound } from '../errors.js';
import type { Account } from '../model/account.js';
import type { SandboxState } from '../state.js';
import { readQuery } from '../validation.js';
import { decodeUuidParam, endedInstancesOf, type InstanceOf } from './instance-lookup.js';
import { renderRecordingMeeting } from './render.js';

/** The service's code for a meeting with no (more) cloud recording, or an unknown recording file. */
export const RECORDING_NOT_FOUND = 3301;

const deleteQuery = z.object({ action: z.enum(['trash', 'delete'], { error: 'Must be trash or delete.' }).default('trash') });

const noRecording = (ref: string) => notFound(RECORDING_NOT_FOUND, `There is no recording for this meeting: ${ref}.`);

/**
 * The recorded instance a `{meetingId}` names: an instance uuid, or a meeting or webinar number
 * (its latest ended instance that still has recording files), of the caller's account.
 */
function requireRecordedInstance(state: SandboxState, account: Account, rawRef: string): InstanceOf {
  const ref = decodeUuidParam(rawRef);
  let found: InstanceOf | undefined;
  if (/^\d{1,16}$/.test(ref)) {
    const meeting = state.meetings.get(Number(ref));
    const instance =
      meeting && meeting.account_id === account.id
        ? endedInstancesOf(meeting)
            .filter((i) => i.recording_files.length > 0)
            .at(-1)
        : undefined;
    found = meeting && instance ? { meeting, instance } : undefined;
  } else {
    const byUuid = state.instancesByUuid.get(ref);
    found = byUuid && byUuid.meeting.account_id === account.id ? byUuid : undefined;
  }
  if (!found || found.instance.recording_files.length === 0) throw noRecording(ref);
  return found;
}

/**
 * One meeting's cloud recording: GET and DELETE /meetings/{meetingId}/recordings, DELETE
 * /meetings/{meetingId}/recordings/{recordingId}. The sandbox keeps no trash: `action=trash` and
 * `action=delete` both remove the files (so GET /users/{userId}/recordings?trash=true stays empty).
 */
export function registerMeetingRecordingRoutes(app: SandboxApp, { state }: SandboxContext): void {
  app.get('/meetings/:meetingId/recordings', (c) => {
    const { meeting, instance } = requireRecordedInstance(state, c.var.account, c.req.param('meetingId'));
    // The reference types this answer's `id` as a string (the list's items carry the number).
    return c.json({ ...renderRecordingMeeting(meeting, instance, new URL(c.req.url).origin), id: String(meeting.id) });
  });

  app.delete('/meetings/:meetingId/recordings', (c) => {
    readQuery(c, deleteQuery);
    const { instance } = requireRecordedInstance(state, c.var.account, c.req.param('meetingId'));
    instance.recording_files = [];
    return c.body(null, 204);
  });

  app.delete('/meetings/:meetingId/recordings/:recordingId', (c) => {
    readQuery(c, deleteQuery);
    const { instance } = requireRecordedInstance(state, c.var.account, c.req.param('meetingId'));
    const recordingId = c.req.param('recordingId');
    const kept = instance.recording_files.filter((f) => f.id !== recordingId);
    if (kept.length === instance.recording_files.length)
      throw notFound(RECORDING_NOT_FOUND, `Recording file does not exist: ${recordingId}.`);
    instance.recording_files = kept;
    return c.body(null, 204);
  });
}
