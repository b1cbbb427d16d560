import type { EndpointDefinition } from '../define.js';

/** The v1 webinars endpoints. */
export const webinarsEndpoints: EndpointDefinition<any>[] = [];
