import type { z } from 'zod';
import { droppedField, fieldTable, negate, type Codec, type CompositeMapping } from '../src/v1/field-map.js';
import { v1 } from '../src/v1/param-types.js';

/**
 * The v1 "shared user option set" ↔ v2 user settings (GET/PATCH /users/{userId}/settings).
 * v2 paths are relative to the settings object. One row per v1 field; v1Default is the v1
 * default a v1 create applies when the field is omitted (v1 and v2 defaults differ: v1 users
 * start with chat, feedback, group HD and local recording on, and auto recording off).
 */

/** What a row helper may add to the row it builds (never its name or type, which the helper keeps literal); the rows are read both ways. */
type RowExtras = { codec?: Codec<boolean, boolean>; note?: string; aliases?: readonly string[] };

const flag = <const V extends string>(v1Name: V, v2: string, v1Default: boolean | undefined, extra: RowExtras = {}) => ({
  v1: v1Name,
  v2,
  type: v1.bool(),
  ...(v1Default === undefined ? {} : { v1Default }),
  ...extra,
});

/** v1 `disable_x` = false means v2 `x` = true. */
const disabled = <const V extends string>(v1Name: V, v2: string, extra: RowExtras = {}) =>
  flag(v1Name, v2, false, { codec: negate, ...extra });
/** v1 `enable_x` (default false) is v2 `x`. */
const enabled = <const V extends string>(v1Name: V, v2: string, extra: RowExtras = {}) => flag(v1Name, v2, false, extra);

/**
 * v1 capacities: 0 (the v1 default) means "no capacity of its own" (meeting: inherit the
 * account's), which v2 cannot write (its capacities start at 1 or 100); a 0 leaves v2 as it is.
 */
const zeroKeeps: Codec<number, number | undefined> = {
  name: '0 = keep the v2 value (inherit)',
  toV2: (value) => (value === 0 ? undefined : value),
  toV1: (value) => value ?? 0,
};

const capacity = <const V extends string, T extends z.ZodType>(v1Name: V, v2: string, type: T, note: string) => ({
  v1: v1Name,
  v2,
  type,
  codec: zeroKeeps,
  v1Default: 0,
  note,
});

export const USER_OPTIONS = fieldTable([
  disabled('disable_chat', 'in_meeting.chat'),
  enabled('enable_e2e_encryption', 'in_meeting.e2e_encryption'),
  enabled('enable_silent_mode', 'in_meeting.attendee_on_hold', { note: 'v1 "silent mode" is attendee on-hold.' }),
  disabled('disable_group_hd', 'in_meeting.group_hd'),
  disabled('disable_recording', 'recording.local_recording', { note: 'v1 "recording" is local recording; cloud recording is enable_cmr.' }),
  enabled('enable_cmr', 'recording.cloud_recording'),
  disabled('disable_feedback', 'in_meeting.feedback'),
  disabled('disable_jbh_reminder', 'email_notification.jbh_reminder'),
  enabled('enable_breakout_room', 'in_meeting.breakout_room'),
  enabled('enable_polling', 'in_meeting.polling'),
  flag('enable_annotation', 'in_meeting.annotation', true),
  enabled('enable_share_dual_camera', 'in_meeting.share_dual_camera', { note: 'Deprecated in v2; still read and written.' }),
  enabled('enable_far_end_camera_control', 'in_meeting.far_end_camera_control'),
  disabled('disable_private_chat', 'in_meeting.private_chat'),
  disabled('disable_cancel_meeting_notification', 'email_notification.cancel_meeting_reminder'),
  enabled('enable_remote_support', 'in_meeting.remote_support'),
  enabled('enable_file_transfer', 'in_meeting.file_transfer'),
  enabled('enable_virtual_background', 'in_meeting.virtual_background'),
  enabled('enable_attention_tracking', 'in_meeting.attention_tracking'),
  enabled('enable_waiting_room', 'in_meeting.waiting_room'),
  enabled('enable_closed_caption', 'in_meeting.closed_caption'),
  enabled('enable_co_host', 'in_meeting.co_host'),
  enabled('enable_auto_saving_chats', 'in_meeting.auto_saving_chat'),
  enabled('enable_phone_participants_password', 'schedule_meeting.pstn_password_protected'),
  enabled('enable_auto_delete_cmr', 'recording.auto_delete_cmr'),
  { v1: 'auto_delete_cmr_days', v2: 'recording.auto_delete_cmr_days', type: v1.int({ min: 1, max: 60 }), note: 'v2 allows 1 to 60 days.' },
  // Features and capacities. v1 states no default for enable_webinar and enable_large; false is v2's.
  flag('enable_webinar', 'feature.webinar', false),
  flag('enable_large', 'feature.large_meeting', false),
  capacity(
    'meeting_capacity',
    'feature.meeting_capacity',
    v1.int({ min: 0 }),
    'v1 0 means "follow the account\'s capacity": nothing is written and v2 keeps its value, which v1 output then shows (v2 shows the capacity in force, never 0).',
  ),
  capacity(
    'webinar_capacity',
    'feature.webinar_capacity',
    v1.intOneOf([0, 100, 500, 1000, 3000, 5000, 10000]),
    'v1 0 (no webinar capacity) leaves v2 as it is.',
  ),
  capacity(
    'large_capacity',
    'feature.large_meeting_capacity',
    v1.intOneOf([0, 100, 200, 300, 500]),
    'v1 0 (no large meeting capacity) leaves v2 as it is.',
  ),
  droppedField({
    v1: 'track_id',
    type: v1.string({ max: 256 }),
    note: 'Referral partner track id: v2 has no such field. Accepted and dropped.',
  }),
]);

/**
 * The recording views: inputs of /user/update only, outputs of get, getbyemail and ssocreate
 * (not part of the shared option set, so no v1 default on create).
 */
export const USER_RECORDING_VIEWS = fieldTable([
  flag('enable_record_speaker_view', 'recording.record_speaker_view', undefined),
  flag('enable_record_gallery_view', 'recording.record_gallery_view', undefined),
  flag('enable_record_audio_file', 'recording.record_audio_file', undefined),
]);

/**
 * v1 automatic recording is two booleans; v2 one enum. v1: "enable_auto_recording becomes true
 * when enable_cloud_auto_recording is true", so cloud wins whatever enable_auto_recording says.
 */
export const AUTO_RECORDING: CompositeMapping = {
  name: 'automatic recording',
  fields: {
    enable_auto_recording: { type: v1.bool(), v1Default: false },
    enable_cloud_auto_recording: { type: v1.bool(), v1Default: false },
  },
  v2: 'recording.auto_recording',
  combinations: [
    { v1: { enable_auto_recording: false, enable_cloud_auto_recording: false }, v2: 'none' },
    { v1: { enable_auto_recording: true, enable_cloud_auto_recording: false }, v2: 'local' },
    { v1: { enable_auto_recording: true, enable_cloud_auto_recording: true }, v2: 'cloud' },
    { v1: { enable_auto_recording: false, enable_cloud_auto_recording: true }, v2: 'cloud' },
  ],
  note: 'enable_cloud_auto_recording true means cloud (enable_auto_recording then reads back true). v1 default: none (v2 default: local).',
};

/** v1 entry/exit chime: on/off plus who hears it (0 everyone, 1 host only); v2: all, host or none. */
export const ENTRY_EXIT_CHIME: CompositeMapping = {
  name: 'entry/exit chime',
  fields: {
    enable_enter_exit_chime: { type: v1.bool(), v1Default: false },
    option_enter_exit_chime_type: { type: v1.intOneOf([0, 1]), v1Default: 0 },
  },
  v2: 'in_meeting.entry_exit_chime',
  combinations: [
    { v1: { enable_enter_exit_chime: false, option_enter_exit_chime_type: 0 }, v2: 'none' },
    { v1: { enable_enter_exit_chime: true, option_enter_exit_chime_type: 0 }, v2: 'all' },
    { v1: { enable_enter_exit_chime: true, option_enter_exit_chime_type: 1 }, v2: 'host' },
    { v1: { enable_enter_exit_chime: false, option_enter_exit_chime_type: 1 }, v2: 'none' },
  ],
  note: 'With the chime off, v2 keeps no "heard by" choice: option_enter_exit_chime_type reads back 0. v1 default: none (v2 default: all).',
};

export const USER_OPTION_COMPOSITES: readonly CompositeMapping[] = [AUTO_RECORDING, ENTRY_EXIT_CHIME];
