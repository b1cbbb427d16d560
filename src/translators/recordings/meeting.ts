import { RECORDING_GET_FILE_ROWS, RECORDING_MEETING_ROWS } from '../../../mappings/recordings.js';
import { V2 } from '../../v2-contract/v2-routes.js';
import { defineEndpoint } from '../kit/define.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { uuidSegment } from '../kit/instance-uuid.js';
import { v1RecordingMeeting } from './list.js';

/**
 * One meeting's cloud recording. v1's `meeting_id` is an instance uuid (`ucc69C82Q5mTNyCRWE29Aw==`)
 * or a meeting number, which v2 takes as it is (a number: its latest recorded instance).
 */

/**
 * /recording/get → GET /meetings/{meetingId}/recordings, then GET /users/{host} for the
 * timezone v1 printed (as /recording/list does).
 */
export const recordingGet = defineEndpoint({
  path: '/recording/get',
  params: v1Params({ meeting_id: v1.id() }),
  v2Calls: [V2.meetings.recordings, V2.users.get],
  tables: [RECORDING_MEETING_ROWS, RECORDING_GET_FILE_ROWS],
  async handle({ meeting_id }, ctx) {
    const recording = await ctx.v2.get(V2.meetings.recordings.at(uuidSegment(meeting_id)));
    const host = await ctx.v2.get(V2.users.get.at(recording.host_id));
    return v1RecordingMeeting(recording, host.timezone ?? '', ctx.downloadUrl, RECORDING_GET_FILE_ROWS);
  },
});

/**
 * /recording/delete → DELETE /meetings/{meetingId}/recordings (every file) or
 * .../recordings/{file_id} (one file). v2 moves them to the trash (its default, and recoverable
 * there for 30 days), which is what deleting meant to a v1 user. Answers the id deleted (the file's
 * when one was named) and the time.
 */
export const recordingDelete = defineEndpoint({
  path: '/recording/delete',
  params: v1Params({ meeting_id: v1.id(), file_id: v1.id().optional() }),
  v2Calls: [V2.meetings.deleteRecordings, V2.meetings.deleteRecordingFile],
  async handle({ meeting_id, file_id }, ctx) {
    const meeting = uuidSegment(meeting_id);
    const target = file_id === undefined ? V2.meetings.deleteRecordings.at(meeting) : V2.meetings.deleteRecordingFile.at(meeting, file_id);
    await ctx.v2.delete(target, { action: 'trash' });
    return { id: file_id ?? meeting_id, deleted_at: ctx.nowIso() };
  },
});
