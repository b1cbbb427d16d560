import { v2Route, type V2Route } from './v2-route.js';

/**
 * Every v2 route the gateway calls, by the resource it acts on, written as the v2 reference
 * (spec/reference/v2-openapi.json) writes it; a test holds each to that. Each route's rate-limit
 * label and scopes are read from today's published documents (src/v2-contract/v2-today.ts, generated
 * from spec/reference/today; `BEYOND_TODAY` for the few they do not hold), never typed here:
 * v1gate's outbound buckets, its scope checks and the sandbox's are all read from them. The
 * translators call these and declare which they call; nothing else names a v2 call.
 */

const userRoutes = {
  list: v2Route('GET', '/users'),
  create: v2Route('POST', '/users'),
  get: v2Route('GET', '/users/{userId}'),
  update: v2Route('PATCH', '/users/{userId}'),
  delete: v2Route('DELETE', '/users/{userId}'),
  emailTaken: v2Route('GET', '/users/email'),
  zpk: v2Route('GET', '/users/zpk'),
  settings: v2Route('GET', '/users/{userId}/settings'),
  updateSettings: v2Route('PATCH', '/users/{userId}/settings'),
  token: v2Route('GET', '/users/{userId}/token'),
  revokeToken: v2Route('DELETE', '/users/{userId}/token'),
  setStatus: v2Route('PUT', '/users/{userId}/status'),
  setPassword: v2Route('PUT', '/users/{userId}/password'),
  uploadPicture: v2Route('POST', '/users/{userId}/picture'),
  addAssistants: v2Route('POST', '/users/{userId}/assistants'),
  deleteAssistants: v2Route('DELETE', '/users/{userId}/assistants'),
  schedulers: v2Route('GET', '/users/{userId}/schedulers'),
  recordings: v2Route('GET', '/users/{userId}/recordings'),
  meetings: v2Route('GET', '/users/{userId}/meetings'),
  createMeeting: v2Route('POST', '/users/{userId}/meetings'),
  webinars: v2Route('GET', '/users/{userId}/webinars'),
  createWebinar: v2Route('POST', '/users/{userId}/webinars'),
};

const meetingRoutes = {
  get: v2Route('GET', '/meetings/{meetingId}'),
  update: v2Route('PATCH', '/meetings/{meetingId}'),
  delete: v2Route('DELETE', '/meetings/{meetingId}'),
  setStatus: v2Route('PUT', '/meetings/{meetingId}/status'),
  register: v2Route('POST', '/meetings/{meetingId}/registrants'),
  recordings: v2Route('GET', '/meetings/{meetingId}/recordings'),
  deleteRecordings: v2Route('DELETE', '/meetings/{meetingId}/recordings'),
  deleteRecordingFile: v2Route('DELETE', '/meetings/{meetingId}/recordings/{recordingId}'),
};

const webinarRoutes = {
  get: v2Route('GET', '/webinars/{webinarId}'),
  update: v2Route('PATCH', '/webinars/{webinarId}'),
  delete: v2Route('DELETE', '/webinars/{webinarId}'),
  setStatus: v2Route('PUT', '/webinars/{webinarId}/status'),
  register: v2Route('POST', '/webinars/{webinarId}/registrants'),
  registrants: v2Route('GET', '/webinars/{webinarId}/registrants'),
  setRegistrantStatus: v2Route('PUT', '/webinars/{webinarId}/registrants/status'),
  panelists: v2Route('GET', '/webinars/{webinarId}/panelists'),
  addPanelists: v2Route('POST', '/webinars/{webinarId}/panelists'),
  pastInstances: v2Route('GET', '/past_webinars/{webinarId}/instances'),
};

const groupRoutes = {
  list: v2Route('GET', '/groups'),
  create: v2Route('POST', '/groups'),
  get: v2Route('GET', '/groups/{groupId}'),
  update: v2Route('PATCH', '/groups/{groupId}'),
  delete: v2Route('DELETE', '/groups/{groupId}'),
  members: v2Route('GET', '/groups/{groupId}/members'),
  addMembers: v2Route('POST', '/groups/{groupId}/members'),
  removeMember: v2Route('DELETE', '/groups/{groupId}/members/{memberId}'),
};

/** The IM groups: the group family at /im/groups, route for route (each a route of its own type). */
const imGroupRoutes = {
  list: v2Route('GET', '/im/groups'),
  create: v2Route('POST', '/im/groups'),
  get: v2Route('GET', '/im/groups/{groupId}'),
  update: v2Route('PATCH', '/im/groups/{groupId}'),
  delete: v2Route('DELETE', '/im/groups/{groupId}'),
  members: v2Route('GET', '/im/groups/{groupId}/members'),
  addMembers: v2Route('POST', '/im/groups/{groupId}/members'),
  removeMember: v2Route('DELETE', '/im/groups/{groupId}/members/{memberId}'),
} satisfies { [Name in keyof typeof groupRoutes]: V2Route<(typeof groupRoutes)[Name]['method']> };

const accountRoutes = {
  list: v2Route('GET', '/accounts'),
  create: v2Route('POST', '/accounts'),
  get: v2Route('GET', '/accounts/{accountId}'),
  delete: v2Route('DELETE', '/accounts/{accountId}'),
  updateOptions: v2Route('PATCH', '/accounts/{accountId}/options'),
  updateSettings: v2Route('PATCH', '/accounts/{accountId}/settings'),
  billing: v2Route('GET', '/accounts/{accountId}/billing'),
  updateBilling: v2Route('PATCH', '/accounts/{accountId}/billing'),
  plans: v2Route('GET', '/accounts/{accountId}/plans'),
  subscribe: v2Route('POST', '/accounts/{accountId}/plans'),
  addAddon: v2Route('POST', '/accounts/{accountId}/plans/addons'),
  updateBasePlan: v2Route('PUT', '/accounts/{accountId}/plans/base'),
  updateAddon: v2Route('PUT', '/accounts/{accountId}/plans/addons'),
};

const metricRoutes = {
  meetings: v2Route('GET', '/metrics/meetings'),
  meeting: v2Route('GET', '/metrics/meetings/{meetingId}'),
  meetingParticipants: v2Route('GET', '/metrics/meetings/{meetingId}/participants'),
  meetingQos: v2Route('GET', '/metrics/meetings/{meetingId}/participants/qos'),
  participantQos: v2Route('GET', '/metrics/meetings/{meetingId}/participants/{participantId}/qos'),
  webinars: v2Route('GET', '/metrics/webinars'),
  webinar: v2Route('GET', '/metrics/webinars/{webinarId}'),
  webinarParticipants: v2Route('GET', '/metrics/webinars/{webinarId}/participants'),
  zoomRooms: v2Route('GET', '/metrics/zoomrooms'),
  zoomRoom: v2Route('GET', '/metrics/zoomrooms/{zoomroomId}'),
  crc: v2Route('GET', '/metrics/crc'),
  im: v2Route('GET', '/metrics/im'),
  chat: v2Route('GET', '/metrics/chat'),
};

const reportRoutes = {
  daily: v2Route('GET', '/report/daily'),
  users: v2Route('GET', '/report/users'),
  userMeetings: v2Route('GET', '/report/users/{userId}/meetings'),
  meetingParticipants: v2Route('GET', '/report/meetings/{meetingId}/participants'),
  webinarParticipants: v2Route('GET', '/report/webinars/{webinarId}/participants'),
  webinarPolls: v2Route('GET', '/report/webinars/{webinarId}/polls'),
  webinarQa: v2Route('GET', '/report/webinars/{webinarId}/qa'),
  telephone: v2Route('GET', '/report/telephone'),
};

export const V2 = {
  users: userRoutes,
  meetings: meetingRoutes,
  webinars: webinarRoutes,
  groups: groupRoutes,
  imGroups: imGroupRoutes,
  accounts: accountRoutes,
  h323Devices: {
    list: v2Route('GET', '/h323/devices'),
    create: v2Route('POST', '/h323/devices'),
    update: v2Route('PATCH', '/h323/devices/{deviceId}'),
    delete: v2Route('DELETE', '/h323/devices/{deviceId}'),
  },
  chat: {
    sessions: v2Route('GET', '/im/chat/sessions'),
    messages: v2Route('GET', '/im/chat/sessions/{sessionId}'),
    userSessions: v2Route('GET', '/chat/users/{userId}/sessions'),
    userMessages: v2Route('GET', '/chat/users/{userId}/messages'),
  },
  metrics: metricRoutes,
  reports: reportRoutes,
} as const;

/** Every route of the catalogue, once. */
export const ALL_V2_ROUTES: readonly V2Route[] = Object.values(V2).flatMap((resource): V2Route[] => Object.values<V2Route>(resource));

/**
 * The routes of `V2` newer than the reference snapshot (spec/reference/v2-openapi.json), each with
 * the public source of its path and answer (docs/live-evidence.md, "Team Chat, chat metrics and the
 * ZPK today"). src/v2-contract/v2-routes.test.ts holds every other route to the snapshot.
 */
export const NEWER_THAN_REFERENCE: ReadonlyMap<V2Route, string> = new Map<V2Route, string>([
  [V2.chat.userSessions, 'https://github.com/zoom/rivet-javascript/blob/main/teamchat/teamchat.d.ts'],
  [V2.chat.userMessages, 'https://github.com/zoom/rivet-javascript/blob/main/teamchat/teamchat.d.ts'],
  [V2.metrics.chat, 'https://zoom.github.io/rivet-javascript/types/Accounts.DashboardsGetChatMetricsResponse.html'],
]);

/** What the service answers today in place of a route v1gate still knows: its replacement, and where that is said. */
export interface Retirement {
  /** The route (or routes) the service serves instead, as its reference writes them. */
  readonly replacement: string;
  /** The public notice of the retirement (docs/live-evidence.md, "Retired routes and token paging"). */
  readonly evidence: string;
}

/**
 * The routes of `V2` the service has retired. A v1 endpoint that still calls one is listed, with
 * the replacement it is owed, by test/gateway/retired-routes.test.ts; the marks stay beside the
 * routes so a retirement is data, read by that test and by whoever writes the replacement.
 */
export const RETIRED: ReadonlyMap<V2Route, Retirement> = new Map<V2Route, Retirement>([
  [
    V2.chat.sessions,
    {
      replacement: 'GET /chat/users/{userId}/sessions',
      evidence: 'https://developers.qodex.ai/zoom-public/zoom-team-chat-api/im-chat-sessions/get-im-chat-sessions',
    },
  ],
  [
    V2.chat.messages,
    {
      replacement: 'GET /chat/users/{userId}/messages',
      evidence: 'https://developers.qodex.ai/zoom-public/zoom-team-chat-api/im-chat-sessions-sessionid/get-im-chat-messages',
    },
  ],
  [
    V2.metrics.im,
    {
      replacement: 'GET /metrics/chat',
      evidence: 'https://api-docs.integration.app/apps/zoom/operations/get-chat-metrics',
    },
  ],
  [
    V2.users.zpk,
    {
      replacement: 'GET /users/{userId}/token?type=zak',
      evidence: 'https://developers.qodex.ai/zoom-public/zoom-user-api/users-userid-token/get-a-users-token',
    },
  ],
]);
