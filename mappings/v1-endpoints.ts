/**
 * Every v1 path the real service served, in our v1 spec's order, then the reference's.
 *
 * Derived once from the two sources of truth and kept here as data, so nothing reads a document
 * outside the repository at run or test time:
 * - `inSpec`: listed in the endpoint tables of our v1 spec (`v1-rest-api.md`, 72 paths);
 * - `inReference`: a path of the service's published v1 swagger (`spec/reference/v1-swagger.json`,
 *   93 paths). `test/docs/v1-endpoints.test.ts` checks this list against that fixture.
 *
 * Our spec adds `/user/uploadpicture`, which the 2018 swagger predates; the swagger has 22 paths our
 * spec leaves out (reports, dashboards, recordings, H.323 devices, chat).
 */
export interface V1EndpointListing {
  readonly path: string;
  readonly inSpec: boolean;
  readonly inReference: boolean;
}

export const V1_ENDPOINTS: readonly V1EndpointListing[] = [
  { path: '/ma/account/create', inSpec: true, inReference: true },
  { path: '/ma/account/list', inSpec: true, inReference: true },
  { path: '/ma/account/get', inSpec: true, inReference: true },
  { path: '/ma/account/update', inSpec: true, inReference: true },
  { path: '/ma/account/delete', inSpec: true, inReference: true },
  { path: '/ma/account/plan/subscribe', inSpec: true, inReference: true },
  { path: '/ma/account/plan/add', inSpec: true, inReference: true },
  { path: '/ma/account/plan/get', inSpec: true, inReference: true },
  { path: '/ma/account/plan/update', inSpec: true, inReference: true },
  { path: '/ma/account/billing/update', inSpec: true, inReference: true },
  { path: '/user/create', inSpec: true, inReference: true },
  { path: '/user/autocreate', inSpec: true, inReference: true },
  { path: '/user/custcreate', inSpec: true, inReference: true },
  { path: '/user/list', inSpec: true, inReference: true },
  { path: '/user/pending', inSpec: true, inReference: true },
  { path: '/user/get', inSpec: true, inReference: true },
  { path: '/user/getbyemail', inSpec: true, inReference: true },
  { path: '/user/update', inSpec: true, inReference: true },
  { path: '/user/updatepassword', inSpec: true, inReference: true },
  { path: '/user/uploadpicture', inSpec: true, inReference: false },
  { path: '/user/activate', inSpec: true, inReference: true },
  { path: '/user/deactivate', inSpec: true, inReference: true },
  { path: '/user/delete', inSpec: true, inReference: true },
  { path: '/user/permanentdelete', inSpec: true, inReference: true },
  { path: '/user/ssocreate', inSpec: true, inReference: true },
  { path: '/user/revoketoken', inSpec: true, inReference: true },
  { path: '/user/assistant/set', inSpec: true, inReference: true },
  { path: '/user/assistant/delete', inSpec: true, inReference: true },
  { path: '/user/scheduleforhost/list', inSpec: true, inReference: true },
  { path: '/user/checkemail', inSpec: true, inReference: true },
  { path: '/user/checkzpk', inSpec: true, inReference: true },
  { path: '/meeting/create', inSpec: true, inReference: true },
  { path: '/meeting/list', inSpec: true, inReference: true },
  { path: '/meeting/live', inSpec: true, inReference: true },
  { path: '/meeting/get', inSpec: true, inReference: true },
  { path: '/meeting/update', inSpec: true, inReference: true },
  { path: '/meeting/delete', inSpec: true, inReference: true },
  { path: '/meeting/end', inSpec: true, inReference: true },
  { path: '/meeting/register', inSpec: true, inReference: true },
  { path: '/webinar/create', inSpec: true, inReference: true },
  { path: '/webinar/list', inSpec: true, inReference: true },
  { path: '/webinar/list/registration', inSpec: true, inReference: true },
  { path: '/webinar/get', inSpec: true, inReference: true },
  { path: '/webinar/update', inSpec: true, inReference: true },
  { path: '/webinar/delete', inSpec: true, inReference: true },
  { path: '/webinar/end', inSpec: true, inReference: true },
  { path: '/webinar/register', inSpec: true, inReference: true },
  { path: '/webinar/registration', inSpec: true, inReference: true },
  { path: '/webinar/registration/cancel', inSpec: true, inReference: true },
  { path: '/webinar/registrants/list', inSpec: true, inReference: true },
  { path: '/webinar/registrants/approve', inSpec: true, inReference: true },
  { path: '/webinar/panelists', inSpec: true, inReference: true },
  { path: '/webinar/uuid/list', inSpec: true, inReference: true },
  { path: '/webinar/attendees/list', inSpec: true, inReference: true },
  { path: '/webinar/polls', inSpec: true, inReference: true },
  { path: '/webinar/questions', inSpec: true, inReference: true },
  { path: '/group/create', inSpec: true, inReference: true },
  { path: '/group/list', inSpec: true, inReference: true },
  { path: '/group/get', inSpec: true, inReference: true },
  { path: '/group/edit', inSpec: true, inReference: true },
  { path: '/group/delete', inSpec: true, inReference: true },
  { path: '/group/member/list', inSpec: true, inReference: true },
  { path: '/group/member/add', inSpec: true, inReference: true },
  { path: '/group/member/delete', inSpec: true, inReference: true },
  { path: '/im/group/create', inSpec: true, inReference: true },
  { path: '/im/group/list', inSpec: true, inReference: true },
  { path: '/im/group/get', inSpec: true, inReference: true },
  { path: '/im/group/edit', inSpec: true, inReference: true },
  { path: '/im/group/delete', inSpec: true, inReference: true },
  { path: '/im/group/member/list', inSpec: true, inReference: true },
  { path: '/im/group/member/delete', inSpec: true, inReference: true },
  { path: '/recording/list', inSpec: true, inReference: true },
  { path: '/chat/get', inSpec: false, inReference: true },
  { path: '/chat/list', inSpec: false, inReference: true },
  { path: '/h323/device/create', inSpec: false, inReference: true },
  { path: '/h323/device/delete', inSpec: false, inReference: true },
  { path: '/h323/device/list', inSpec: false, inReference: true },
  { path: '/h323/device/update', inSpec: false, inReference: true },
  { path: '/mc/recording/list', inSpec: false, inReference: true },
  { path: '/metrics/crc', inSpec: false, inReference: true },
  { path: '/metrics/im', inSpec: false, inReference: true },
  { path: '/metrics/meetingdetail', inSpec: false, inReference: true },
  { path: '/metrics/meetings', inSpec: false, inReference: true },
  { path: '/metrics/qos', inSpec: false, inReference: true },
  { path: '/metrics/webinardetail', inSpec: false, inReference: true },
  { path: '/metrics/webinars', inSpec: false, inReference: true },
  { path: '/metrics/zoomroomdetail', inSpec: false, inReference: true },
  { path: '/metrics/zoomrooms', inSpec: false, inReference: true },
  { path: '/recording/delete', inSpec: false, inReference: true },
  { path: '/recording/get', inSpec: false, inReference: true },
  { path: '/report/getaccountreport', inSpec: false, inReference: true },
  { path: '/report/getaudioreport', inSpec: false, inReference: true },
  { path: '/report/getdailyreport', inSpec: false, inReference: true },
  { path: '/report/getuserreport', inSpec: false, inReference: true },
];

/** The 72 paths of our v1 spec, in its order. */
export const SPEC_ENDPOINT_PATHS: readonly string[] = V1_ENDPOINTS.filter((e) => e.inSpec).map((e) => e.path);

/** The 93 paths of the service's published v1 reference. */
export const REFERENCE_ENDPOINT_PATHS: readonly string[] = V1_ENDPOINTS.filter((e) => e.inReference).map((e) => e.path);
