import type { EndpointDefinition } from '../kit/define.js';
import { webinarAttendeesList } from './attendees.js';
import { webinarUuidList } from './instances.js';
import { webinarPolls, webinarQuestions } from './surveys.js';

/** The v1 reports of ended webinars: instances, attendees, polls and Q&A. */
export const webinarReportEndpoints: EndpointDefinition[] = [webinarUuidList, webinarAttendeesList, webinarPolls, webinarQuestions];
