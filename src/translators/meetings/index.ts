import type { EndpointDefinition } from '../define.js';

/** The v1 meetings endpoints. */
export const meetingsEndpoints: EndpointDefinition<any>[] = [];
