import { MEETING_OPTIONS, WEBINAR_OPTIONS } from '../../../mappings/scheduling-options.js';
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
  /** The v1 answer fields, in the order of the v1 reference examples. */
  fields: { create: readonly string[]; get: readonly string[]; listItem: readonly string[] };
}

/**
 * The real service emitted `option_enforce_login_domains` with a trailing space in six answers
 * (meeting create, list and live; webinar create, get and list: see their reference examples), and
 * clients coded against those answers read that key. Those answers carry it right after the
 * unspaced key, with the same value (render.ts); no other answer does.
 */
export const SPACED_LOGIN_DOMAINS = 'option_enforce_login_domains ';

/** Meeting create answer, as the v1 swagger example orders it (create adds real_id). */
const MEETING_ITEM = [
  'uuid',
  'id',
  'start_url',
  'join_url',
  'created_at',
  'host_id',
  'topic',
  'type',
  'option_jbh',
  'option_start_type',
  'start_time',
  'duration',
  'timezone',
  'password',
  'h323_password',
  'option_host_video',
  'option_participants_video',
  'option_audio',
  'option_enforce_login',
  'option_enforce_login_domains',
  SPACED_LOGIN_DOMAINS,
  'option_alternative_hosts',
  'status',
] as const;

export const MEETING: SessionKind = {
  noun: 'meeting',
  collection: 'meetings',
  table: MEETING_OPTIONS,
  endBody: { action: 'end' },
  fields: {
    create: ['uuid', 'id', 'real_id', ...MEETING_ITEM.slice(2)],
    get: [
      'uuid',
      'id',
      'host_id',
      'topic',
      'password',
      'h323_password',
      'status',
      'option_jbh',
      'option_start_type',
      'option_host_video',
      'option_participants_video',
      'option_cn_meeting',
      'option_enforce_login',
      'option_enforce_login_domains',
      'option_in_meeting',
      'option_audio',
      'option_alternative_hosts',
      'option_use_pmi',
      'type',
      'start_time',
      'duration',
      'timezone',
      'start_url',
      'join_url',
      'created_at',
      'occurrences',
    ],
    listItem: MEETING_ITEM,
  },
};

const WEBINAR_OUTPUT = [
  'uuid',
  'id',
  'host_id',
  'topic',
  'agenda',
  'status',
  'option_start_type',
  'option_audio',
  'option_enforce_login',
  'option_enforce_login_domains',
  SPACED_LOGIN_DOMAINS,
  'option_alternative_hosts',
  'type',
  'start_time',
  'duration',
  'timezone',
  'start_url',
  'join_url',
  'registration_url',
  'created_at',
] as const;

export const WEBINAR: SessionKind = {
  noun: 'webinar',
  collection: 'webinars',
  table: WEBINAR_OPTIONS,
  // Our v2 spec names the end field `status` for webinars (meetings: `action`).
  endBody: { status: 'end' },
  fields: {
    create: WEBINAR_OUTPUT,
    get: [...WEBINAR_OUTPUT, 'occurrences'],
    listItem: [
      'uuid',
      'id',
      'start_url',
      'join_url',
      'created_at',
      'host_id',
      'topic',
      'type',
      'start_time',
      'duration',
      'timezone',
      'agenda',
      'option_start_type',
      'option_audio',
      'option_enforce_login',
      'option_enforce_login_domains',
      SPACED_LOGIN_DOMAINS,
      'option_alternative_hosts',
      'status',
    ],
  },
};
