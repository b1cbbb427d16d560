import { z } from 'zod';
import type { UserSettings } from '../model/user.js';
import { orRequired } from './schemas.js';

/**
 * User settings (GET/PATCH /users/{userId}/settings): one table of every writable field with its
 * rule, read like the spec's "User settings" section. The PATCH schema is derived from it, so a
 * field and its limit are written down once.
 */

const bool = z.boolean(orRequired('Must be a boolean.'));
const oneOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, orRequired(`Must be one of ${values.join(', ')}.`));
const numberIn = <T extends readonly [number, ...number[]]>(values: T) =>
  z.literal(values, orRequired(`Must be one of ${values.join(', ')}.`));
const booleans = <K extends string>(names: readonly K[]) => Object.fromEntries(names.map((name) => [name, bool])) as Record<K, typeof bool>;

export const USER_SETTINGS_FIELDS = {
  schedule_meeting: {
    ...booleans(['host_video', 'participants_video', 'join_before_host', 'force_pmi_jbh_password', 'pstn_password_protected']),
    audio_type: oneOf(['both', 'telephony', 'voip', 'thirdParty']),
  },
  in_meeting: {
    ...booleans([
      'e2e_encryption',
      'chat',
      'private_chat',
      'auto_saving_chat',
      'record_play_voice',
      'file_transfer',
      'feedback',
      'co_host',
      'polling',
      'attendee_on_hold',
      'annotation',
      'remote_control',
      'non_verbal_feedback',
      'breakout_room',
      'remote_support',
      'closed_caption',
      'group_hd',
      'virtual_background',
      'far_end_camera_control',
      'share_dual_camera',
      'attention_tracking',
      'waiting_room',
    ]),
    entry_exit_chime: oneOf(['host', 'all', 'none']),
  },
  email_notification: booleans(['jbh_reminder', 'cancel_meeting_reminder', 'alternative_host_reminder']),
  recording: {
    ...booleans([
      'local_recording',
      'cloud_recording',
      'record_speaker_view',
      'record_gallery_view',
      'record_audio_file',
      'save_chat_text',
      'show_timestamp',
      'recording_audio_transcript',
      'auto_delete_cmr',
    ]),
    auto_recording: oneOf(['local', 'cloud', 'none']),
    auto_delete_cmr_days: z.int(orRequired('Must be an integer.')).min(1, 'Must be at least 1.').max(60, 'Must be at most 60.'),
  },
  telephony: {
    third_party_audio: bool,
    audio_conference_info: z.string(orRequired('Must be a string.')).max(2048, 'Must be at most 2048 characters.'),
    show_international_numbers_link: bool,
  },
  feature: {
    meeting_capacity: z.int(orRequired('Must be an integer.')).min(1, 'Must be at least 1.'),
    large_meeting: bool,
    large_meeting_capacity: numberIn([100, 200, 300, 500]),
    webinar: bool,
    webinar_capacity: numberIn([100, 500, 1000, 3000, 5000, 10000]),
    // Shown by GET only (the reference's UserSettingsFeatureUpdate leaves them out): writing them is an error.
    cn_meeting: z.never({ error: 'Read-only field.' }),
    in_meeting: z.never({ error: 'Read-only field.' }),
  },
} as const;

type Fields = typeof USER_SETTINGS_FIELDS;
type GroupPatch<G extends Record<string, z.ZodType>> = { [K in keyof G]?: z.output<G[K]> };
export type UserSettingsPatch = { [G in keyof Fields]?: GroupPatch<Fields[G]> };

const groupSchema = (fields: Record<string, z.ZodType>) =>
  z.strictObject(
    Object.fromEntries(Object.entries(fields).map(([name, rule]) => [name, rule.optional()])),
    orRequired('Must be an object.'),
  );

const groups = Object.fromEntries(Object.entries(USER_SETTINGS_FIELDS).map(([group, fields]) => [group, groupSchema(fields).optional()]));

/**
 * The PATCH body, its groups under today's names: `schedule_meeting`, as the reference and today's
 * documents spell it (a former spec of ours called it `scheduled_meeting`, now refused as unknown).
 */
export const userSettingsPatchBody: z.ZodType<UserSettingsPatch> = z.strictObject(groups);

/** Apply an already validated patch: only the fields it names change. */
export function applySettingsPatch(settings: UserSettings, patch: UserSettingsPatch): void {
  for (const [group, values] of Object.entries(patch)) {
    if (values) settings[group] = { ...settings[group], ...values };
  }
}
