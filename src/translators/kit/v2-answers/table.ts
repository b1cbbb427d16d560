import type { z } from 'zod';
import type { PathValue, V2Method, V2Route } from '../../../v2-contract/v2-route.js';
import type { V2 } from '../../../v2-contract/v2-routes.js';
import { checkedAnswer, NO_CONTENT, NOT_READ } from '../answer-shape.js';
import { V2_ACCOUNT, V2_ACCOUNT_PAGE, V2_BILLING_CONTACT, V2_CREATED_ACCOUNT, V2_PLAN_SET } from './accounts.js';
import { V2_USER_CHAT_MESSAGES, V2_USER_CHAT_SESSIONS } from './chat.js';
import { V2_GROUP, V2_GROUP_LIST, V2_GROUP_PAGE, V2_MEMBER_PAGE, V2_MEMBERS_ADDED } from './groups.js';
import { V2_H323_DEVICE, V2_H323_DEVICE_PAGE } from './h323.js';
import {
  V2_CHAT_METRICS_PAGE,
  V2_CRC,
  V2_METRICS_PARTICIPANT_PAGE,
  V2_METRICS_SESSION,
  V2_METRICS_SESSION_PAGES,
  V2_QOS,
  V2_QOS_PAGE,
  V2_ROOM_DETAIL,
  V2_ROOM_PAGE,
} from './metrics.js';
import { V2_MEETING_RECORDINGS, V2_RECORDING_PAGE } from './recordings.js';
import { V2_PANELISTS, V2_REGISTERED, V2_REGISTRANT_PAGE } from './registration.js';
import { V2_DAILY_REPORT, V2_HOSTED_PAGE, V2_HOSTS_REPORT, V2_MEETING_PARTICIPANT_PAGE, V2_TELEPHONE_REPORT } from './reports.js';
import { V2_SESSION, V2_SESSION_PAGES } from './sessions.js';
import { V2_ASSISTANTS, V2_CREATED_USER, V2_EMAIL_EXISTS, V2_SETTINGS, V2_TOKEN, V2_USER, V2_USER_PAGE } from './users.js';
import { V2_INSTANCES, V2_SURVEY, V2_WEBINAR_PARTICIPANT_PAGE } from './webinar-reports.js';

/**
 * The one answer schema of each v2 route of `V2` (src/v2-contract/v2-routes.ts), by the route's name: the
 * fields any translator reads of it, each as required as the v2 reference and today's service make
 * it. The v2 client of a translator reads its answer from here by the target's route
 * (`ctx.v2.get(V2.users.get.at(id))` is a `V2User`), so no call names a schema of its own. The
 * compiler holds the table to `V2`: a route without its row, a row for no route, or a schema where v2
 * answers nothing (a PATCH, PUT or DELETE: `NO_CONTENT`) does not compile. A GET or POST whose
 * answer no translator reads says so with `NOT_READ`.
 */

/** Every route of `V2`, each of its own type. */
type CatalogueRoute = { [Resource in keyof typeof V2]: (typeof V2)[Resource][keyof (typeof V2)[Resource]] }[keyof typeof V2];

/** The name of each route of `V2`: `GET /users/{userId}`. */
export type V2RouteName = CatalogueRoute['name'];

/** A GET or POST answers what a schema says; the other methods answer nothing. */
type AnswerRow<Name extends string> = Name extends `${'GET' | 'POST'} ${string}` ? z.ZodType : typeof NO_CONTENT;

export const V2_ANSWERS = {
  'GET /users': V2_USER_PAGE,
  'POST /users': V2_CREATED_USER,
  'GET /users/{userId}': V2_USER,
  'PATCH /users/{userId}': NO_CONTENT,
  'DELETE /users/{userId}': NO_CONTENT,
  'GET /users/email': V2_EMAIL_EXISTS,
  // Retired (RETIRED in src/v2-contract/v2-routes.ts): no endpoint calls it.
  'GET /users/zpk': NOT_READ,
  'GET /users/{userId}/settings': V2_SETTINGS,
  'PATCH /users/{userId}/settings': NO_CONTENT,
  'GET /users/{userId}/token': V2_TOKEN,
  'DELETE /users/{userId}/token': NO_CONTENT,
  'PUT /users/{userId}/status': NO_CONTENT,
  'PUT /users/{userId}/password': NO_CONTENT,
  'POST /users/{userId}/picture': NOT_READ,
  'POST /users/{userId}/assistants': NOT_READ,
  'DELETE /users/{userId}/assistants': NO_CONTENT,
  'GET /users/{userId}/schedulers': V2_ASSISTANTS,
  'GET /users/{userId}/recordings': V2_RECORDING_PAGE,
  'GET /users/{userId}/meetings': V2_SESSION_PAGES.meetings,
  'POST /users/{userId}/meetings': V2_SESSION,
  'GET /users/{userId}/webinars': V2_SESSION_PAGES.webinars,
  'POST /users/{userId}/webinars': V2_SESSION,

  'GET /meetings/{meetingId}': V2_SESSION,
  'PATCH /meetings/{meetingId}': NO_CONTENT,
  'DELETE /meetings/{meetingId}': NO_CONTENT,
  'PUT /meetings/{meetingId}/status': NO_CONTENT,
  'POST /meetings/{meetingId}/registrants': V2_REGISTERED,
  'GET /meetings/{meetingId}/recordings': V2_MEETING_RECORDINGS,
  'DELETE /meetings/{meetingId}/recordings': NO_CONTENT,
  'DELETE /meetings/{meetingId}/recordings/{recordingId}': NO_CONTENT,

  'GET /webinars/{webinarId}': V2_SESSION,
  'PATCH /webinars/{webinarId}': NO_CONTENT,
  'DELETE /webinars/{webinarId}': NO_CONTENT,
  'PUT /webinars/{webinarId}/status': NO_CONTENT,
  'POST /webinars/{webinarId}/registrants': V2_REGISTERED,
  'GET /webinars/{webinarId}/registrants': V2_REGISTRANT_PAGE,
  'PUT /webinars/{webinarId}/registrants/status': NO_CONTENT,
  'GET /webinars/{webinarId}/panelists': V2_PANELISTS,
  'POST /webinars/{webinarId}/panelists': NOT_READ,
  'GET /past_webinars/{webinarId}/instances': V2_INSTANCES,

  'GET /groups': V2_GROUP_LIST,
  'POST /groups': V2_GROUP,
  'GET /groups/{groupId}': V2_GROUP,
  'PATCH /groups/{groupId}': NO_CONTENT,
  'DELETE /groups/{groupId}': NO_CONTENT,
  'GET /groups/{groupId}/members': V2_MEMBER_PAGE,
  'POST /groups/{groupId}/members': V2_MEMBERS_ADDED,
  'DELETE /groups/{groupId}/members/{memberId}': NO_CONTENT,

  'GET /im/groups': V2_GROUP_PAGE,
  'POST /im/groups': V2_GROUP,
  'GET /im/groups/{groupId}': V2_GROUP,
  'PATCH /im/groups/{groupId}': NO_CONTENT,
  'DELETE /im/groups/{groupId}': NO_CONTENT,
  'GET /im/groups/{groupId}/members': V2_MEMBER_PAGE,
  'POST /im/groups/{groupId}/members': V2_MEMBERS_ADDED,
  'DELETE /im/groups/{groupId}/members/{memberId}': NO_CONTENT,

  'GET /accounts': V2_ACCOUNT_PAGE,
  'POST /accounts': V2_CREATED_ACCOUNT,
  'GET /accounts/{accountId}': V2_ACCOUNT,
  'DELETE /accounts/{accountId}': NO_CONTENT,
  'PATCH /accounts/{accountId}/options': NO_CONTENT,
  'PATCH /accounts/{accountId}/settings': NO_CONTENT,
  'GET /accounts/{accountId}/billing': V2_BILLING_CONTACT,
  'PATCH /accounts/{accountId}/billing': NO_CONTENT,
  'GET /accounts/{accountId}/plans': V2_PLAN_SET,
  'POST /accounts/{accountId}/plans': V2_PLAN_SET,
  'POST /accounts/{accountId}/plans/addons': NOT_READ,
  'PUT /accounts/{accountId}/plans/base': NO_CONTENT,
  'PUT /accounts/{accountId}/plans/addons': NO_CONTENT,

  'GET /h323/devices': V2_H323_DEVICE_PAGE,
  'POST /h323/devices': V2_H323_DEVICE,
  'PATCH /h323/devices/{deviceId}': NO_CONTENT,
  'DELETE /h323/devices/{deviceId}': NO_CONTENT,

  // Retired (RETIRED in src/v2-contract/v2-routes.ts): no endpoint calls them.
  'GET /im/chat/sessions': NOT_READ,
  'GET /im/chat/sessions/{sessionId}': NOT_READ,
  'GET /chat/users/{userId}/sessions': V2_USER_CHAT_SESSIONS,
  'GET /chat/users/{userId}/messages': V2_USER_CHAT_MESSAGES,

  'GET /metrics/meetings': V2_METRICS_SESSION_PAGES.meetings,
  'GET /metrics/meetings/{meetingId}': V2_METRICS_SESSION,
  'GET /metrics/meetings/{meetingId}/participants': V2_METRICS_PARTICIPANT_PAGE,
  'GET /metrics/meetings/{meetingId}/participants/qos': V2_QOS_PAGE,
  'GET /metrics/meetings/{meetingId}/participants/{participantId}/qos': V2_QOS,
  'GET /metrics/webinars': V2_METRICS_SESSION_PAGES.webinars,
  'GET /metrics/webinars/{webinarId}': V2_METRICS_SESSION,
  'GET /metrics/webinars/{webinarId}/participants': V2_METRICS_PARTICIPANT_PAGE,
  'GET /metrics/zoomrooms': V2_ROOM_PAGE,
  'GET /metrics/zoomrooms/{zoomroomId}': V2_ROOM_DETAIL,
  'GET /metrics/crc': V2_CRC,
  // Retired (RETIRED in src/v2-contract/v2-routes.ts): no endpoint calls it.
  'GET /metrics/im': NOT_READ,
  'GET /metrics/chat': V2_CHAT_METRICS_PAGE,

  'GET /report/daily': V2_DAILY_REPORT,
  'GET /report/users': V2_HOSTS_REPORT,
  'GET /report/users/{userId}/meetings': V2_HOSTED_PAGE,
  'GET /report/meetings/{meetingId}/participants': V2_MEETING_PARTICIPANT_PAGE,
  'GET /report/webinars/{webinarId}/participants': V2_WEBINAR_PARTICIPANT_PAGE,
  'GET /report/webinars/{webinarId}/polls': V2_SURVEY,
  'GET /report/webinars/{webinarId}/qa': V2_SURVEY,
  'GET /report/telephone': V2_TELEPHONE_REPORT,
} satisfies { readonly [Name in V2RouteName]: AnswerRow<Name> };

/** What each route answers a translator, by name: its schema's output (`undefined` for `NO_CONTENT`). */
export type V2Answers = {
  readonly [Name in V2RouteName]: (typeof V2_ANSWERS)[Name] extends z.ZodType ? z.output<(typeof V2_ANSWERS)[Name]> : undefined;
};

/** What a route of this name answers: its row's type; for a name outside `V2` (a route typed only `V2Route`), unknown. */
export type V2Answer<Name extends string> = (V2Answers & Readonly<Record<string, unknown>>)[Name];

/**
 * The answer of a GET or POST to `route`, checked against its row (kit/answer-shape.ts says what a
 * misfit answers). Its route's name types it, as the table does.
 */
export function checkedV2Answer<Name extends string>(route: V2Route<V2Method, PathValue[], Name>, answer: unknown): V2Answer<Name> {
  const schema: unknown = (V2_ANSWERS as Readonly<Record<string, unknown>>)[route.name];
  if (schema === undefined || schema === NO_CONTENT) throw new TypeError(`${route.name} has no answer schema in V2_ANSWERS.`);
  return checkedAnswer(schema as z.ZodType, answer, route);
}
