import type { EndpointDefinition } from '../kit/define.js';
import { createEndpoint } from '../sessions/create.js';
import { deleteEndpoint, endEndpoint } from '../sessions/delete-end.js';
import { getEndpoint } from '../sessions/get.js';
import { WEBINAR } from '../sessions/kinds.js';
import { updateEndpoint } from '../sessions/update.js';
import { webinarList, webinarListRegistration } from './lists.js';
import { addPanelistsAfterCreate, panelistsNotOnUpdate } from './panelists.js';

/**
 * The v1 webinar endpoints. Create, get, update, delete and end are the session family's
 * (../sessions), given WEBINAR; the lists and panelists are this area's own.
 */
export const webinarsEndpoints: EndpointDefinition[] = [
  createEndpoint(WEBINAR, addPanelistsAfterCreate),
  webinarList,
  webinarListRegistration,
  getEndpoint(WEBINAR),
  // v1 made `type` optional on a webinar update; panelists are set on create (refused here, never silently ignored).
  updateEndpoint(WEBINAR, { refused: { panelists: panelistsNotOnUpdate } }),
  deleteEndpoint(WEBINAR),
  endEndpoint(WEBINAR),
];
