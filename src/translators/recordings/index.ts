import type { EndpointDefinition } from '../define.js';

/** The v1 recordings endpoints. */
export const recordingsEndpoints: EndpointDefinition<any>[] = [];
