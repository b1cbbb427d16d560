import type { EndpointDefinition } from '../define.js';
import { accountReport } from './account.js';
import { dailyReport } from './daily.js';
import { userReport } from './user.js';

/** v1's account usage reports: daily, per host (account), and one host's meetings (user). */
export const reportEndpoints: EndpointDefinition<any>[] = [dailyReport, accountReport, userReport];
