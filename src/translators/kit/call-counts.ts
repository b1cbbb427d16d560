import { V2 } from '../../v2-contract/v2-routes.js';
import type { EndpointDefinition } from './define.js';
import { MAX_WALK_PAGES } from './token-walk.js';

/**
 * How many v2 calls one successful v1 call makes (docs/coverage.md): min, typical (the call as
 * clients make it, caches warm) and max. Fan-outs are written as formulas ("2 + n, one per listed
 * meeting"). Where no count is declared here it is derived from the endpoint's `v2Calls`: each
 * listed call once, undo calls only in max — an approximation the document says it is.
 */
export interface CallCount {
  min: number;
  typical: number | string;
  max: number | string;
  /** Why min, typical and max differ. */
  note?: string;
}

/** A session read with its host check: the host's own id costs nothing more; an email or another host one user read. */
const HOST_CHECKED = `one more ${V2.users.get.name} when host_id is an email or not the session's host`;
const ACCOUNT_ONCE = `the account id (the caller's own user, ${V2.users.get.name} at \`me\`) is read once per api_key and secret, then kept`;
/** Why the session lists read each item: v2's list items lack most of v1's. */
const READ_IN_FULL =
  "for the fields a v2 list item lacks (start_url, password, h323_password, every option_*); a page whose reads the call's outbound wait cannot admit is refused before any is sent";
const WEBINARS_FILTERED = `p pages of the host's webinars (300 each), then one ${V2.webinars.get.name} per webinar of the host (n: v2 cannot filter them by registration, which only the full webinar shows), ${READ_IN_FULL}`;

/** A v1 page of a list read by its token chain (token-walk.ts). */
const WALKED = `w: the v2 pages of the chain read to reach v1's page, 1 when the page before it was read lately (its token kept), else up to page_number, at most ${MAX_WALK_PAGES}`;
const walked: CallCount = { min: 1, typical: 'w', max: 'w', note: WALKED };

const sessionWrite: CallCount = { min: 2, typical: 2, max: 3, note: `GET the session, then the write; ${HOST_CHECKED}` };
const groupRead: CallCount = { min: 1, typical: 1, max: 2, note: ACCOUNT_ONCE };
/** A webinar's host check beside one more call (a read of it, or the change): two calls, three when the host is looked up. */
const webinarChecked: CallCount = { min: 2, typical: 2, max: 3, note: `the webinar (the host check) and the call itself; ${HOST_CHECKED}` };

/** A user read in full: itself, its settings, and the one token v2 still issues, the ZAK (the ZPK and the Zoom token are retired). */
const USER_READ = `${V2.users.get.name}, ${V2.users.settings.name}, and ${V2.users.token.name} for the zak (the retired zpk and token are answered empty)`;
const userRead: CallCount = { min: 3, typical: 3, max: 3, note: USER_READ };
/** A create with its writes, then the user read back as the answer shows it. */
const userCreated = (readBack: number, shown: string): CallCount => ({
  min: 1 + readBack,
  typical: `${1 + readBack} + w`,
  max: 1 + 4 + readBack + 1,
  note: `${V2.users.create.name}, then w ≤ 4 writes for what the call gives (the user's fields, its settings, a group, an IM group), then the user read back (${shown}); a write that fails deletes the new user (undo)`,
});
const memberAdd: CallCount = {
  min: 1,
  typical: 1,
  max: 'p + 2b',
  note: 'one POST per batch of 30 members (b); with more than one batch, p pages of the members already in the group first, and if a batch fails the members the earlier ones added are removed (undo)',
};
const memberDelete: CallCount = {
  min: 1,
  typical: 'n',
  max: '2n',
  note: 'one DELETE per member id (n); if one fails, those removed before it are added back (undo)',
};

export const DECLARED_CALL_COUNTS: Readonly<Record<string, CallCount>> = {
  '/user/list': {
    min: 1,
    typical: 'w + n',
    max: 'w + n',
    note: `the page of active users (${WALKED}), then one ${V2.users.settings.name} per listed user (n ≤ page_size), checked as one fan-out before any is sent, so each item shows the options /user/get shows`,
  },
  '/user/pending': walked,
  '/group/member/list': walked,
  '/im/group/member/list': walked,
  '/h323/device/list': walked,
  '/ma/account/list': walked,
  '/report/getaudioreport': walked,
  '/metrics/im': walked,
  '/chat/get': {
    min: 1,
    typical: 2,
    max: 2,
    note: `the messages, and for a group one page of ${V2.chat.userSessions.name} for its name (a one-to-one chat has none to read)`,
  },
  '/user/get': userRead,
  '/user/getbyemail': userRead,
  '/user/autocreate': userCreated(3, USER_READ),
  '/user/custcreate': userCreated(3, USER_READ),
  '/user/ssocreate': userCreated(3, USER_READ),
  '/user/create': userCreated(2, `${V2.users.get.name} and ${V2.users.settings.name}`),
  '/group/member/add': memberAdd,
  '/im/group/member/add': memberAdd,
  '/group/member/delete': memberDelete,
  '/im/group/member/delete': memberDelete,
  '/ma/account/update': {
    min: 1,
    typical: 1,
    max: 4,
    note: 'one PATCH of the options or of the settings the call changes (the account read when it changes neither); both: the account read first (the options to put back), the two PATCHes, and the options put back if the settings fail (undo)',
  },
  '/report/getaccountreport': {
    min: 2,
    typical: 'w + p',
    max: 'w + p',
    note: `the active hosts report (${WALKED}), then every page (p, 300 each) of ${V2.users.list.name} for the hosts' names and emails`,
  },
  '/ma/account/plan/update': { min: 1, typical: 1, max: 1, note: 'the base plan or the add-on plan, as `type` says' },
  '/recording/delete': { min: 1, typical: 1, max: 1, note: "all the meeting's recordings, or the one file `file_id` names" },
  '/metrics/qos': {
    min: 1,
    typical: 1,
    max: 1,
    note: "the QoS of the participant `user_id` names, else the first of the meeting's QoS list",
  },
  '/webinar/registration': {
    min: 2,
    typical: '1 + s·p',
    max: '2 + s·p',
    note: `the webinar (the host check), then the pages (p, 300 each) of its registrants of each status listed (s); ${HOST_CHECKED}`,
  },
  '/webinar/registrants/approve': {
    min: 2,
    typical: '1 + s·p + b',
    max: '2 + s·p + b',
    note: `the webinar (the host check), its registrants of each status (s statuses, p pages) to find those named, then one status change per batch of 30 (b); ${HOST_CHECKED}`,
  },
  '/webinar/attendees/list': {
    min: 5,
    typical: 5,
    max: '5 + p',
    note: `the webinar (the host check), its participants report (p more pages past the first), registrants, panelists and past instances; ${HOST_CHECKED}`,
  },
  '/meeting/get': {
    min: 1,
    typical: 1,
    max: 3,
    note: `the host's live meetings (for \`status\`) come from the aux cache (AUX_CACHE_TTL_MS, dropped by the key's writes): 2 when it is cold or off; ${HOST_CHECKED}`,
  },
  '/webinar/get': { min: 2, typical: 2, max: 3, note: `the session and its host (the host check); ${HOST_CHECKED}` },
  '/webinar/panelists': webinarChecked,
  '/webinar/uuid/list': webinarChecked,
  '/webinar/polls': webinarChecked,
  '/webinar/questions': webinarChecked,
  '/webinar/registrants/list': {
    min: 2,
    typical: '1 + w',
    max: '2 + w',
    note: `the webinar (the host check) and the registrants (${WALKED}); ${HOST_CHECKED}`,
  },
  '/webinar/registration/cancel': webinarChecked,
  '/meeting/update': sessionWrite,
  '/meeting/delete': sessionWrite,
  '/meeting/end': sessionWrite,
  '/webinar/update': sessionWrite,
  '/webinar/delete': sessionWrite,
  '/webinar/end': sessionWrite,
  '/meeting/create': { min: 1, typical: 1, max: 1 },
  '/meeting/list': {
    min: 1,
    typical: 'w + n',
    max: 'w + 1 + n',
    note: `the page of scheduled meetings (${WALKED}), the host's live meetings (aux cache), and one ${V2.meetings.get.name} per listed meeting (n ≤ page_size) ${READ_IN_FULL}`,
  },
  '/meeting/live': {
    min: 1,
    typical: '1 + n',
    max: 'p + n',
    note: `p pages of 300 live meetings up to the v1 page asked, then one ${V2.meetings.get.name} per listed meeting ${READ_IN_FULL}`,
  },
  '/webinar/list': { min: 1, typical: 'p + n', max: 'p + n', note: WEBINARS_FILTERED },
  '/webinar/list/registration': { min: 1, typical: 'p + n', max: 'p + n', note: WEBINARS_FILTERED },
  '/group/create': { min: 1, typical: 1, max: 2, note: ACCOUNT_ONCE },
  '/group/get': groupRead,
  '/group/list': groupRead,
  '/group/edit': { min: 2, typical: 2, max: 3, note: `the edit, then the group read back; ${ACCOUNT_ONCE}` },
  '/im/group/create': { min: 1, typical: 1, max: 2, note: ACCOUNT_ONCE },
  '/im/group/get': groupRead,
  '/im/group/list': { min: 1, typical: 1, max: 'p + 1', note: `p pages of 300 IM groups; ${ACCOUNT_ONCE}` },
  '/im/group/edit': { min: 2, typical: 2, max: 3, note: `the edit, then the group read back; ${ACCOUNT_ONCE}` },
  '/group/delete': { min: 1, typical: 1, max: 1 },
  '/im/group/delete': { min: 1, typical: 1, max: 1 },
  '/report/getuserreport': {
    min: 1,
    typical: '1 + n',
    max: '1 + n',
    note: "the user's meetings, then one participants report per meeting (checked against the report limits before it starts)",
  },
};

/** The declared count, or the one derived from the routes (each called once; undo routes only in max). */
export function callCountOf(path: string, endpoint: EndpointDefinition): CallCount & { declared: boolean } {
  const declared = DECLARED_CALL_COUNTS[path];
  if (declared) return { ...declared, declared: true };
  const calls = endpoint.v2Calls.length;
  return { min: calls, typical: calls, max: calls + (endpoint.v2Undo?.length ?? 0), declared: false };
}

/** The line docs/coverage.md prints under each endpoint's v2 calls. */
export function callCountLine(path: string, endpoint: EndpointDefinition): string {
  const count = callCountOf(path, endpoint);
  const numbers = `min ${count.min} · typical ${count.typical} · max ${count.max}`;
  if (!count.declared) return `v2 calls per v1 call: ${numbers} (derived: each listed call once).`;
  return `v2 calls per v1 call: ${numbers}${count.note ? ` — ${count.note}` : ''}.`;
}
