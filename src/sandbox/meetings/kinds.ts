import { z } from 'zod';
import type { MeetingKind } from '../model/meeting.js';
import type { User } from '../model/user.js';
import { meetingSettingsSchema, onUpdate, sessionSchema, webinarSettingsSchema, type RecurrenceInput } from './schemas.js';

/** The `type` filter of GET /users/{userId}/meetings (filterSessions, listing.ts, says what each keeps). */
export type MeetingListType = 'scheduled' | 'live' | 'upcoming' | 'upcoming_meetings' | 'previous_meetings';

/**
 * What differs between meetings and webinars. Every handler of this area is written once and
 * given one of these two descriptions; nothing else in the area branches on the kind.
 */
export interface KindSpec {
  kind: MeetingKind;
  /** The word in messages: `Meeting 123 not found`. */
  noun: 'Meeting' | 'Webinar';
  /** Path segment and list key: `/meetings/{id}`, `{meetings: [...]}`. */
  collection: 'meetings' | 'webinars';
  types: readonly number[];
  defaultType: number;
  /** Started on the spot, at creation time (meetings only). */
  instantType: number | null;
  /** Recurring with no fixed time: no start_time, no occurrences. */
  noFixedTimeType: number;
  /** Recurring with a fixed time: the occurrences come from the recurrence. */
  fixedTimeRecurringType: number;
  /** New sessions' settings, per the defaults of the spec tables (video from the host's own settings). */
  defaultSettings(host: User): Record<string, unknown>;
  createSchema: z.ZodType<SessionBody>;
  updateSchema: z.ZodType<SessionBody>;
  /** The list's own query: meetings filter by `type` (default live); webinars list every one. */
  listQuery: z.ZodType<{ type?: MeetingListType }>;
  /** Whether the PUT .../status body asks to end the session. */
  statusSchema: z.ZodType<{ end: boolean }>;
  /** Fields of the full answer (create and retrieve), in the spec's order. */
  fullFields: readonly string[];
  /** Fields of a list item, in the spec's order. */
  listFields: readonly string[];
  /** Topic of a session created without one. */
  defaultTopic: string;
}

/** A validated create or update body (every field optional). */
export interface SessionBody {
  topic?: string;
  type?: number;
  start_time?: string;
  duration?: number;
  timezone?: string;
  password?: string;
  agenda?: string;
  recurrence?: RecurrenceInput;
  settings?: Record<string, unknown>;
}

const hostVideo = (host: User) => host.settings.schedule_meeting?.host_video === true;
const participantsVideo = (host: User) => host.settings.schedule_meeting?.participants_video === true;

/** Settings both kinds share, with the spec's defaults. */
const commonDefaults = {
  approval_type: 2,
  registration_type: 1,
  audio: 'both',
  auto_recording: 'none',
  meeting_authentication: false,
  authentication_option: '',
  authentication_domains: '',
  alternative_hosts: '',
};

const MEETING_TYPES = [1, 2, 3, 8] as const;
const WEBINAR_TYPES = [5, 6, 9] as const;

export const MEETING: KindSpec = {
  kind: 'meeting',
  noun: 'Meeting',
  collection: 'meetings',
  types: MEETING_TYPES,
  defaultType: 2,
  instantType: 1,
  noFixedTimeType: 3,
  fixedTimeRecurringType: 8,
  defaultSettings: (host) => ({
    host_video: hostVideo(host),
    participant_video: participantsVideo(host),
    cn_meeting: false,
    in_meeting: false,
    join_before_host: false,
    mute_upon_entry: false,
    watermark: false,
    use_pmi: false,
    ...commonDefaults,
  }),
  createSchema: sessionSchema(MEETING_TYPES, meetingSettingsSchema),
  updateSchema: sessionSchema(MEETING_TYPES, onUpdate(meetingSettingsSchema)),
  listQuery: z.object({ type: z.enum(['scheduled', 'live', 'upcoming', 'upcoming_meetings', 'previous_meetings']).default('scheduled') }),
  statusSchema: z.object({ action: z.enum(['end']).optional() }).transform((b) => ({ end: b.action === 'end' })),
  fullFields: [
    'uuid',
    'id',
    'host_id',
    'topic',
    'type',
    'start_time',
    'duration',
    'timezone',
    'created_at',
    'agenda',
    'start_url',
    'join_url',
    'password',
    'h323_password',
    'encrypted_password',
    'occurrences',
    'settings',
  ],
  listFields: ['uuid', 'id', 'host_id', 'topic', 'type', 'start_time', 'duration', 'timezone', 'created_at', 'join_url'],
  defaultTopic: 'My Meeting',
};

export const WEBINAR: KindSpec = {
  kind: 'webinar',
  noun: 'Webinar',
  collection: 'webinars',
  types: WEBINAR_TYPES,
  defaultType: 5,
  instantType: null,
  noFixedTimeType: 6,
  fixedTimeRecurringType: 9,
  defaultSettings: (host) => ({
    host_video: hostVideo(host),
    panelists_video: participantsVideo(host),
    practice_session: false,
    hd_video: false,
    ...commonDefaults,
    close_registration: false,
    show_share_button: false,
    allow_multiple_devices: false,
  }),
  createSchema: sessionSchema(WEBINAR_TYPES, webinarSettingsSchema),
  updateSchema: sessionSchema(WEBINAR_TYPES, onUpdate(webinarSettingsSchema)),
  listQuery: z.object({}),
  // Our spec names the field `status` (the reference says `action`; ours wins).
  // `action`, as today's document and the old reference name it (a `status` field ends nothing).
  statusSchema: z.object({ action: z.enum(['end']).optional() }).transform((b) => ({ end: b.action === 'end' })),
  // No password in the webinar answer (it is accepted and kept, only not shown).
  fullFields: [
    'uuid',
    'id',
    'host_id',
    'topic',
    'type',
    'start_time',
    'duration',
    'timezone',
    'agenda',
    'created_at',
    'start_url',
    'join_url',
    'occurrences',
    'settings',
  ],
  // The spec's webinar list item has no start_time.
  listFields: ['uuid', 'id', 'host_id', 'topic', 'type', 'duration', 'timezone', 'created_at', 'join_url'],
  defaultTopic: 'My Webinar',
};

export const KINDS = [MEETING, WEBINAR] as const;
