import { accountsEndpoints } from '../accounts/index.js';
import type { EndpointDefinition } from './define.js';
import { chatEndpoints } from '../chat/index.js';
import { groupsEndpoints } from '../groups/index.js';
import { h323Endpoints } from '../h323/index.js';
import { imgroupsEndpoints } from '../im-groups/index.js';
import { meetingsEndpoints } from '../meetings/index.js';
import { metricsEndpoints } from '../metrics/index.js';
import { recordingsEndpoints } from '../recordings/index.js';
import { registrationEndpoints } from '../registration/index.js';
import { reportEndpoints } from '../reports/index.js';
import { usersEndpoints } from '../users/index.js';
import { webinarsEndpoints } from '../webinars/index.js';
import { webinarReportEndpoints } from '../webinar-reports/index.js';

/** Every v1 endpoint v1gate serves. */
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

/** The canonical form of a v1 path: lower case, no `/v1` prefix, no trailing slash. */
export function canonicalPath(path: string): string {
  return (
    path
      .toLowerCase()
      .replace(/^\/v1(?=\/)/, '')
      .replace(/\/+$/, '') || '/'
  );
}

/** Path → definition, aliases included; a path served twice is a programming error. */
export function buildRegistry(endpoints: readonly EndpointDefinition[]): Map<string, EndpointDefinition> {
  const registry = new Map<string, EndpointDefinition>();
  for (const endpoint of endpoints) {
    for (const path of [endpoint.path, ...(endpoint.aliases ?? [])]) {
      const key = canonicalPath(path);
      if (registry.has(key)) throw new Error(`Two translators serve ${key}`);
      registry.set(key, endpoint);
    }
  }
  return registry;
}
