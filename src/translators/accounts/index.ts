import type { EndpointDefinition } from '../define.js';

/** The v1 accounts endpoints. */
export const accountsEndpoints: EndpointDefinition<any>[] = [];
