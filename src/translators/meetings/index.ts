import type { EndpointDefinition } from '../define.js';
import { createEndpoint } from '../scheduling/create.js';
import { deleteEndpoint, endEndpoint } from '../scheduling/delete-end.js';
import { getEndpoint } from '../scheduling/get.js';
import { MEETING } from '../scheduling/kinds.js';
import { updateEndpoint } from '../scheduling/update.js';
import { meetingList } from './list.js';
import { meetingLive } from './live.js';

/** The v1 meetings endpoints (scheduling; shared with webinars through ../scheduling). */
export const meetingsEndpoints: EndpointDefinition[] = [
  createEndpoint(MEETING),
  meetingList,
  meetingLive,
  getEndpoint(MEETING),
  // v1 required `type` on a meeting update.
  updateEndpoint(MEETING, { typeRequired: true }),
  deleteEndpoint(MEETING),
  endEndpoint(MEETING),
];
