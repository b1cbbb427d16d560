import type { EndpointDefinition } from './kit/define.js';
import { accountsEndpoints } from './accounts/index.js';
import { chatEndpoints } from './chat/index.js';
import { groupsEndpoints, imgroupsEndpoints } from './groups/index.js';
import { h323Endpoints } from './h323/index.js';
import { meetingsEndpoints } from './meetings/index.js';
import { metricsEndpoints } from './metrics/index.js';
import { recordingsEndpoints } from './recordings/index.js';
import { registrationEndpoints } from './registration/index.js';
import { reportEndpoints } from './reports/index.js';
import { usersEndpoints } from './users/index.js';
import { webinarReportEndpoints } from './webinar-reports/index.js';
import { webinarsEndpoints } from './webinars/index.js';

/**
 * Every v1 endpoint v1gate serves: the one module that imports every area (the coverage document
 * and the gateway read it; the areas never import each other).
 */
export const ALL_ENDPOINTS: readonly EndpointDefinition[] = [
  ...accountsEndpoints,
  ...usersEndpoints,
  ...meetingsEndpoints,
  ...webinarsEndpoints,
  ...groupsEndpoints,
  ...imgroupsEndpoints,
  ...recordingsEndpoints,
  ...registrationEndpoints,
  ...webinarReportEndpoints,
  ...reportEndpoints,
  ...h323Endpoints,
  ...metricsEndpoints,
  ...chatEndpoints,
];
