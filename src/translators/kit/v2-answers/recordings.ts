import { z } from 'zod';
import { V2_TOKEN_PAGE } from '../v2-paging.js';
import { looseFields, OBJECT_READ_BY_KEY } from '../answer-shape.js';

/**
 * The v2 cloud recording answers. A recorded meeting's other fields and its files are read through
 * the recording tables by name; its id and start time are what the lists filter and sort by, so
 * they are required although the v2 OpenAPI promises no field of it.
 */

/** A meeting's recordings: an item of GET /users/{userId}/recordings. */
const RECORDING_MEETING_FIELDS = {
  id: z.union([z.number(), z.string()]),
  start_time: z.string(),
  recording_files: z.array(OBJECT_READ_BY_KEY),
};
export const V2_RECORDING_MEETING = looseFields(RECORDING_MEETING_FIELDS);
export type V2RecordingMeeting = z.output<typeof V2_RECORDING_MEETING>;

/** GET /meetings/{meetingId}/recordings: the same, and its host (whose time zone v1 printed). */
export const V2_MEETING_RECORDINGS = looseFields({ ...RECORDING_MEETING_FIELDS, host_id: z.string() });

/** GET /users/{userId}/recordings, by token. */
export const V2_RECORDING_PAGE = looseFields({ ...V2_TOKEN_PAGE, meetings: z.array(V2_RECORDING_MEETING) });
