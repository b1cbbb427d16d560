import type { EndpointDefinition } from '../define.js';

/** The v1 users endpoints. */
export const usersEndpoints: EndpointDefinition<any>[] = [];
