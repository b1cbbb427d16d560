import type { EndpointDefinition } from '../define.js';
import { createEndpoint } from '../scheduling/create.js';
import { deleteEndpoint, endEndpoint } from '../scheduling/delete-end.js';
import { getEndpoint } from '../scheduling/get.js';
import { WEBINAR } from '../scheduling/kinds.js';
import { updateEndpoint } from '../scheduling/update.js';
import { webinarList, webinarListRegistration } from './lists.js';
import { addPanelistsAfterCreate, panelistsNotOnUpdate } from './panelists.js';

/** The v1 webinars endpoints (scheduling; shared with meetings through ../scheduling). */
export const webinarsEndpoints: EndpointDefinition[] = [
  createEndpoint(WEBINAR, addPanelistsAfterCreate),
  webinarList,
  webinarListRegistration,
  getEndpoint(WEBINAR),
  // v1 made `type` optional on a webinar update; panelists are set on create (refused here, never silently ignored).
  updateEndpoint(WEBINAR, { typeRequired: false, refused: { panelists: panelistsNotOnUpdate } }),
  deleteEndpoint(WEBINAR),
  endEndpoint(WEBINAR),
];
