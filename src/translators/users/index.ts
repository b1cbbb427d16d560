import type { EndpointDefinition } from '../define.js';
import { userCheckEmail, userCheckZpk } from './check.js';

/** The v1 user endpoints. */
export const usersEndpoints: EndpointDefinition<any>[] = [userCheckEmail, userCheckZpk];
