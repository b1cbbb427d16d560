import { MEETING_OPTIONS, WEBINAR_OPTIONS } from '../../../mappings/scheduling-options.js';
import { MEETING_ANSWERS, WEBINAR_ANSWERS, type SessionAnswers } from '../../../mappings/session-answers.js';
import type { FieldTable } from '../../v1/field-map.js';
import { V2 } from '../../v2-contract/v2-routes.js';
import { LIVE_MEETINGS, NO_LIVE_WEBINARS, type LiveStatus } from './status.js';

/**
 * What differs between v1 meetings and v1 webinars, as data: every session translator is written
 * once (in this folder) and given one of these two descriptions; nothing else branches on the kind.
 */
export interface SessionKind {
  /** The word in messages and v1 paths: `meeting`, `webinar`. */
  noun: 'meeting' | 'webinar';
  /** The v2 collection: `/meetings/{id}`, `/users/{userId}/meetings`, and the v1 list key. */
  collection: 'meetings' | 'webinars';
  table: FieldTable;
  /** The v2 routes of a kind's sessions: the same calls at the kind's collection. */
  v2: SessionRoutes;
  /** How v1's `status` is read (status.ts says why the kinds differ). */
  live: LiveStatus;
  /** The body of `PUT /{collection}/{id}/status` that ends a session (the two kinds differ in v2). */
  endBody: Record<string, string>;
  /** The v1 answers (mappings/session-answers.ts). */
  answers: SessionAnswers;
}

/**
 * Each route takes the session's number (or the host's id, for the host's collection). Each is
 * typed as either kind's route (`V2.meetings.get | V2.webinars.get`): an endpoint written once for
 * both kinds declares `kind.v2.get` and may call `kind.v2.get.at(id)`, whichever kind it is given.
 */
export interface SessionRoutes {
  /** The host's sessions (`/users/{userId}/meetings`), and a new one there. */
  list: typeof V2.users.meetings | typeof V2.users.webinars;
  create: typeof V2.users.createMeeting | typeof V2.users.createWebinar;
  get: typeof V2.meetings.get | typeof V2.webinars.get;
  update: typeof V2.meetings.update | typeof V2.webinars.update;
  delete: typeof V2.meetings.delete | typeof V2.webinars.delete;
  setStatus: typeof V2.meetings.setStatus | typeof V2.webinars.setStatus;
  register: typeof V2.meetings.register | typeof V2.webinars.register;
}

export const MEETING: SessionKind = {
  noun: 'meeting',
  collection: 'meetings',
  table: MEETING_OPTIONS,
  v2: {
    list: V2.users.meetings,
    create: V2.users.createMeeting,
    get: V2.meetings.get,
    update: V2.meetings.update,
    delete: V2.meetings.delete,
    setStatus: V2.meetings.setStatus,
    register: V2.meetings.register,
  },
  live: LIVE_MEETINGS,
  endBody: { action: 'end' },
  answers: MEETING_ANSWERS,
};

export const WEBINAR: SessionKind = {
  noun: 'webinar',
  collection: 'webinars',
  table: WEBINAR_OPTIONS,
  v2: {
    list: V2.users.webinars,
    create: V2.users.createWebinar,
    get: V2.webinars.get,
    update: V2.webinars.update,
    delete: V2.webinars.delete,
    setStatus: V2.webinars.setStatus,
    register: V2.webinars.register,
  },
  live: NO_LIVE_WEBINARS,
  // `action`, as for meetings: today's document and the old reference alike (not `status`).
  endBody: { action: 'end' },
  answers: WEBINAR_ANSWERS,
};
