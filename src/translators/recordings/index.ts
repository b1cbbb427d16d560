import type { EndpointDefinition } from '../kit/define.js';
import { mcRecordingList, recordingList } from './list.js';
import { recordingDelete, recordingGet } from './meeting.js';

/** The v1 recording endpoints: /recording/list (our v1 spec), /recording/get and /recording/delete (the v1 reference). */
export const recordingsEndpoints: EndpointDefinition[] = [recordingList, recordingGet, recordingDelete, mcRecordingList];
