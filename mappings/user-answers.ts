import type { AnswerShape } from '../src/v1/answer.js';

/**
 * The v1 user answers (src/translators/users/user-output.ts fills them from the v2 user, its
 * settings and its tokens through the user tables): each a list of fields in the order of the v1
 * reference's example.
 */

/** The three tokens v1 answered. */
export const TOKEN_TYPES = ['token', 'zpk', 'zak'] as const;

/**
 * The tokens today's v2 still issues, one `GET /users/{userId}/token?type=` each: the ZAK alone.
 * The ZPK is retired (docs/live-evidence.md, "Team Chat, chat metrics and the ZPK today"), and
 * `type=token` answers an account not on the service's allowlist a text in the token's place
 * ("The user token today"): no service issues either, so v1's `zpk` and `token` are answered
 * empty, as a list item answers all three, and no call asks for them.
 */
export const V2_TOKEN_TYPES = ['zak'] as const satisfies readonly (typeof TOKEN_TYPES)[number][];

/** The option booleans every full user shows (the v1 spec: "the boolean fields of the shared option set"). */
const OPTION_BOOLEANS = [
  'disable_chat',
  'enable_e2e_encryption',
  'enable_silent_mode',
  'disable_group_hd',
  'disable_recording',
  'enable_cmr',
  'enable_auto_recording',
  'enable_cloud_auto_recording',
] as const;
const FEATURES = ['meeting_capacity', 'enable_webinar', 'webinar_capacity', 'enable_large', 'large_capacity'] as const;
const MORE_OPTION_BOOLEANS = [
  'disable_feedback',
  'disable_jbh_reminder',
  'enable_breakout_room',
  'enable_polling',
  'enable_annotation',
  'enable_share_dual_camera',
  'enable_far_end_camera_control',
  'disable_private_chat',
  'enable_enter_exit_chime',
  'disable_cancel_meeting_notification',
  'enable_remote_support',
  'enable_file_transfer',
  'enable_virtual_background',
  'enable_attention_tracking',
  'enable_waiting_room',
  'enable_closed_caption',
  'enable_co_host',
  'enable_auto_saving_chats',
  'enable_phone_participants_password',
  'enable_auto_delete_cmr',
] as const;
const RECORDING_VIEWS = ['enable_record_speaker_view', 'enable_record_gallery_view', 'enable_record_audio_file'] as const;
const ACTIVITY = ['lastClientVersion', 'lastLoginTime'] as const;

/** Full user output (autocreate, custcreate): the v1 spec's list, in the v1 reference's order. */
const FULL_USER = [
  'email',
  'id',
  'created_at',
  'first_name',
  'last_name',
  'pic_url',
  'type',
  ...OPTION_BOOLEANS,
  'verified',
  'pmi',
  ...FEATURES,
  ...MORE_OPTION_BOOLEANS,
  'auto_delete_cmr_days',
  'dept',
  ...ACTIVITY,
  ...TOKEN_TYPES,
] as const;

/** The v1 user answers. None answers a field it has no value for (v1 left it out). */
export const USER_ANSWERS = {
  /** /user/create: the user is pending, and v1 answered a short record. */
  create: {
    fields: [
      'id',
      'email',
      'first_name',
      'last_name',
      'type',
      'enable_large',
      'large_capacity',
      'enable_webinar',
      'webinar_capacity',
      'verified',
      'created_at',
      'status',
    ],
  },
  full: { fields: FULL_USER },
  /** "ssocreate adds vanity_url, timezone and the record view booleans." */
  ssocreate: { fields: [...FULL_USER, ...RECORDING_VIEWS, 'vanity_url', 'timezone'] },
  /** "Get and getbyemail add the record views, vanity_url, status; get adds account_id, timezone." */
  getbyemail: { fields: [...FULL_USER, ...RECORDING_VIEWS, 'vanity_url', 'status'] },
  get: { fields: [...FULL_USER, ...RECORDING_VIEWS, 'vanity_url', 'status', 'account_id', 'timezone'] },
  /** A /user/list and /user/pending item: the v1 spec's list, with the booleans and the empty tokens of the v1 reference's example. */
  listItem: {
    fields: [
      'email',
      'id',
      'created_at',
      'first_name',
      'last_name',
      'type',
      'pic_url',
      ...OPTION_BOOLEANS,
      'verified',
      'pmi',
      ...FEATURES,
      'disable_feedback',
      'disable_jbh_reminder',
      'enable_breakout_room',
      'dept',
      'timezone',
      ...ACTIVITY,
      'status',
      ...TOKEN_TYPES,
    ],
  },
} as const satisfies Record<string, AnswerShape>;
