import type { JsonType } from './v1-answers.js';

/**
 * Where the live v1 service answered another JSON type than the reference's example shows
 * (docs/live-evidence.md): v1 path → field (dotted through objects and the first item of lists:
 * `meetings.id`) → the type it answered. The typed-client schemas (./typed-clients.ts) and the
 * exact-shape checks against the reference (./v1-answers.ts) both take these types over the
 * example's.
 */
export const LIVE_TYPES: Readonly<Record<string, Readonly<Record<string, JsonType>>>> = {
  '/meeting/create': { id: 'number' },
  '/meeting/get': { id: 'number' },
  '/meeting/list': { 'meetings.id': 'number' },
  '/meeting/live': { 'meetings.id': 'number' },
  '/meeting/register': { id: 'number' },
  '/webinar/create': { id: 'number' },
  '/webinar/get': { id: 'number' },
  '/webinar/list': { 'webinars.id': 'number' },
  '/webinar/list/registration': { 'webinars.id': 'number' },
  '/webinar/register': { id: 'number' },
  '/metrics/meetings': { 'meetings.id': 'number' },
  '/metrics/webinars': { 'meetings.id': 'number' },
  '/metrics/meetingdetail': { id: 'number' },
  '/metrics/webinardetail': { id: 'number' },
  '/metrics/zoomroomdetail': { 'past_meetings.id': 'number' },
  '/recording/list': { 'meetings.meeting_number': 'number' },
  '/recording/get': { meeting_number: 'number' },
  '/mc/recording/list': { 'meetings.meeting_number': 'number' },
};
