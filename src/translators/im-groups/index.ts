import type { EndpointDefinition } from '../define.js';

/** The v1 im-groups endpoints. */
export const imgroupsEndpoints: EndpointDefinition<any>[] = [];
