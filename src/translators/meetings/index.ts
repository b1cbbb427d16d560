import type { EndpointDefinition } from '../kit/define.js';
import { createEndpoint } from '../sessions/create.js';
import { deleteEndpoint, endEndpoint } from '../sessions/delete-end.js';
import { getEndpoint } from '../sessions/get.js';
import { MEETING } from '../sessions/kinds.js';
import { updateEndpoint } from '../sessions/update.js';
import { meetingList } from './list.js';
import { meetingLive } from './live.js';

/**
 * The v1 meeting endpoints. Create, get, update, delete and end are the session family's
 * (../sessions), given MEETING; the lists are this area's own.
 */
export const meetingsEndpoints: EndpointDefinition[] = [
  createEndpoint(MEETING),
  meetingList,
  meetingLive,
  getEndpoint(MEETING),
  updateEndpoint(MEETING),
  deleteEndpoint(MEETING),
  endEndpoint(MEETING),
];
