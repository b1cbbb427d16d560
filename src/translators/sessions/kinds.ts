import { MEETING_OPTIONS, WEBINAR_OPTIONS } from '../../../mappings/scheduling-options.js';
import { MEETING_ANSWERS, WEBINAR_ANSWERS, type SessionAnswers } from '../../../mappings/session-answers.js';
import type { FieldTable } from '../../v1/field-map.js';

/**
 * What differs between v1 meetings and v1 webinars. Every scheduling translator is written once
 * (in this folder) and given one of these two descriptions; nothing else branches on the kind.
 */
export interface SessionKind {
  /** The word in messages and v1 paths: `meeting`, `webinar`. */
  noun: 'meeting' | 'webinar';
  /** The v2 collection: `/meetings/{id}`, `/users/{userId}/meetings`, and the v1 list key. */
  collection: 'meetings' | 'webinars';
  table: FieldTable;
  /** The body of `PUT /{collection}/{id}/status` that ends a session (the two kinds differ in v2). */
  endBody: Record<string, string>;
  /** The v1 answers (mappings/session-answers.ts). */
  answers: SessionAnswers;
}

export const MEETING: SessionKind = {
  noun: 'meeting',
  collection: 'meetings',
  table: MEETING_OPTIONS,
  endBody: { action: 'end' },
  answers: MEETING_ANSWERS,
};

export const WEBINAR: SessionKind = {
  noun: 'webinar',
  collection: 'webinars',
  table: WEBINAR_OPTIONS,
  // Our v2 spec names the end field `status` for webinars (meetings: `action`).
  endBody: { status: 'end' },
  answers: WEBINAR_ANSWERS,
};
