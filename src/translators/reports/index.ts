import type { EndpointDefinition } from '../kit/define.js';
import { accountReport } from './account.js';
import { audioReport } from './audio.js';
import { dailyReport } from './daily.js';
import { userReport } from './user.js';

/** v1's account usage reports: daily, per host (account), one host's meetings (user), telephone legs (audio). */
export const reportEndpoints: EndpointDefinition[] = [dailyReport, accountReport, userReport, audioReport];
