import type { EndpointDefinition } from '../define.js';

/** The v1 groups endpoints. */
export const groupsEndpoints: EndpointDefinition<any>[] = [];
