import { USER_FIELDS } from '../../../mappings/user-fields.js';
import { USER_OPTIONS, USER_OPTION_COMPOSITES, USER_RECORDING_VIEWS } from '../../../mappings/user-options.js';
import type { Query } from '../../upstream/client.js';
import { v2path } from '../../shared/v2-path.js';
import type { V2Api } from '../kit/define.js';
import { compositesToV1, toV1 } from '../../v1/field-map.js';
import { V2_SETTINGS, V2_TOKEN, V2_USER, type V2Settings, type V2User } from './v2-answers.js';

/**
 * The v1 user as the v1 answers show it, assembled from the v2 user, its settings and its tokens
 * through the mapping tables. Each v1 answer is a list of field names (in the order of the v1
 * reference's example); the parts to read follow from the fields it shows.
 */

export type { V2Settings, V2User } from './v2-answers.js';

const TOKEN_TYPES = ['token', 'zpk', 'zak'] as const;
type Tokens = Record<(typeof TOKEN_TYPES)[number], string>;

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

export const USER_ANSWERS = {
  /** /user/create: the user is pending, and v1 answered a short record. */
  create: [
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
  full: FULL_USER,
  /** "ssocreate adds vanity_url, timezone and the record view booleans." */
  ssocreate: [...FULL_USER, ...RECORDING_VIEWS, 'vanity_url', 'timezone'],
  /** "Get and getbyemail add the record views, vanity_url, status; get adds account_id, timezone." */
  getbyemail: [...FULL_USER, ...RECORDING_VIEWS, 'vanity_url', 'status'],
  get: [...FULL_USER, ...RECORDING_VIEWS, 'vanity_url', 'status', 'account_id', 'timezone'],
  /** A /user/list and /user/pending item: the v1 spec's list, with the booleans of the v1 reference's example. */
  listItem: [
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
} as const satisfies Record<string, readonly string[]>;

export type UserAnswer = readonly string[];

/** The v1 fields that come from the settings (tables and composites). */
export const SETTINGS_FIELDS: ReadonlySet<string> = new Set([
  ...[...USER_OPTIONS, ...USER_RECORDING_VIEWS].map((row) => row.v1),
  ...USER_OPTION_COMPOSITES.flatMap((composite) => Object.keys(composite.fields)),
]);

export interface V2UserParts {
  user: V2User;
  settings?: V2Settings;
  tokens?: Tokens;
}

/**
 * Read what `answer` shows of the user `ref` (id or email): the user, and — only when shown — the
 * settings and the three tokens, all in parallel.
 */
export async function readUserParts(v2: V2Api, ref: string, answer: UserAnswer, loginType?: number): Promise<V2UserParts> {
  const query: Query | undefined = loginType === undefined ? undefined : { login_type: loginType };
  const wantsSettings = answer.some((field) => SETTINGS_FIELDS.has(field));
  const wantsTokens = answer.includes('token');
  const [user, settings, ...tokens] = await Promise.all([
    v2.get(v2path`/users/${ref}`, V2_USER, query),
    wantsSettings ? v2.get(v2path`/users/${ref}/settings`, V2_SETTINGS, query) : undefined,
    ...TOKEN_TYPES.map((type) => (wantsTokens ? v2.get(v2path`/users/${ref}/token`, V2_TOKEN, { type }).then((t) => t.token) : undefined)),
  ]);
  return {
    user,
    ...(settings ? { settings } : {}),
    ...(wantsTokens ? { tokens: Object.fromEntries(TOKEN_TYPES.map((type, i) => [type, tokens[i]])) as Tokens } : {}),
  };
}

/** Every v1 field the parts say something about, through the tables. */
export function v1UserOf(parts: V2UserParts): Record<string, unknown> {
  return {
    ...toV1(USER_FIELDS, parts.user),
    ...(parts.settings
      ? {
          ...toV1(USER_OPTIONS, parts.settings),
          ...toV1(USER_RECORDING_VIEWS, parts.settings),
          ...compositesToV1(USER_OPTION_COMPOSITES, parts.settings),
        }
      : {}),
    ...parts.tokens,
  };
}

/** The v1 answer: the fields `answer` lists, in its order. */
export function answerWith(v1User: Record<string, unknown>, answer: UserAnswer): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of answer) if (v1User[field] !== undefined) out[field] = v1User[field];
  return out;
}

/** Read and answer a user in one step (get, getbyemail, and the end of the create variants). */
export async function readV1User(v2: V2Api, ref: string, answer: UserAnswer, loginType?: number): Promise<Record<string, unknown>> {
  return answerWith(v1UserOf(await readUserParts(v2, ref, answer, loginType)), answer);
}
