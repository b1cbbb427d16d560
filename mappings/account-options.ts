import { droppedField, enumCodec, fieldTable, negate, type FieldTable } from '../src/v1/field-map.js';
import { v1 } from '../src/v1/param-types.js';

/**
 * The options of a v1 sub account (/ma/account/create and /ma/account/update) and where each one
 * lives in v2: the account `options` object (POST /accounts, PATCH /accounts/{id}/options) or the
 * account settings (PATCH /accounts/{id}/settings, in today's spellings `schedule_meeting` and
 * `cloud_recording_available_reminder`; the old reference's `schedule_meting` and `avaliable` are gone).
 */

/** v1 pay_mode: 0 the sub account holder pays, 1 the master account holder pays (v2 `sub` / `master`). */
export const payModeCodec = enumCodec<number, string>([
  [0, 'sub'],
  [1, 'master'],
]);

/**
 * v1 enable_pstn (whether meetings of the account may use telephone audio) ↔ the account's default
 * meeting audio: PSTN on is `both` (computer and phone), PSTN off is `voip` (computer only).
 */
export const pstnCodec = enumCodec<boolean, string>([
  [true, 'both'],
  [false, 'voip'],
]);

/**
 * The sub account's owner, as POST /accounts takes it beside the options: /ma/account/create
 * requires each (its params say so); input only, the answer is the account's (ACCOUNT_ANSWER).
 */
export const ACCOUNT_OWNER_ROWS = fieldTable([
  { v1: 'email', v2: 'email', type: v1.email(), direction: 'in' },
  { v1: 'first_name', v2: 'first_name', type: v1.string(), direction: 'in' },
  { v1: 'last_name', v2: 'last_name', type: v1.string(), direction: 'in' },
  { v1: 'password', v2: 'password', type: v1.string(), direction: 'in' },
]);

/** v1 fields → the v2 account `options` object (paths include `options.`, as POST /accounts nests them). */
export const ACCOUNT_OPTION_ROWS = fieldTable([
  { v1: 'enable_share_rc', v2: 'options.share_rc', type: v1.bool(), v1Default: false },
  { v1: 'share_rc', v2: 'options.room_connectors', type: v1.string(), note: 'Comma-separated virtual room connectors.' },
  { v1: 'enable_share_mc', v2: 'options.share_mc', type: v1.bool(), v1Default: false },
  { v1: 'share_mc', v2: 'options.meeting_connectors', type: v1.string(), note: 'Comma-separated meeting connectors.' },
  {
    v1: 'pay_mode',
    v2: 'options.pay_mode',
    type: v1.intOneOf([0, 1]),
    codec: payModeCodec,
    v1Default: 1,
    note: '0 (sub account holder pays) is v2 `sub`; 1 (master account holder pays, the v1 default) is v2 `master`.',
  },
]);

/** v1 fields → v2 account settings (PATCH /accounts/{id}/settings). */
export const ACCOUNT_SETTING_ROWS: FieldTable = [
  { v1: 'enable_enforce_login', v2: 'schedule_meeting.enforce_login', type: v1.bool(), v1Default: false },
  { v1: 'enable_enforce_login_sd', v2: 'schedule_meeting.enforce_login_with_domains', type: v1.bool(), v1Default: false },
  { v1: 'enforce_login_domains', v2: 'schedule_meeting.enforce_login_domains', type: v1.string() },
  {
    v1: 'meeting_capacity',
    v2: 'feature.meeting_capacity',
    type: v1.int({ min: 1, max: 100 }),
    note: 'v1 says "max of 100"; without it the account keeps v2\'s default (100).',
  },
  {
    v1: 'disable_cmr_reminder',
    v2: 'email_notification.cloud_recording_available_reminder',
    type: v1.bool(),
    codec: negate,
    v1Default: false,
    note: "Negated. The v1 default (reminder on) differs from v2's (off), so a v1 create turns it on.",
  },
  { v1: 'enable_only_host_download_cmr', v2: 'recording.cloud_recording_download_host', type: v1.bool(), v1Default: false },
  { v1: 'enable_same_account_access_cmr', v2: 'recording.account_user_access_recording', type: v1.bool(), v1Default: false },
  {
    v1: 'enable_pstn',
    v2: 'schedule_meeting.audio_type',
    type: v1.bool(),
    codec: pstnCodec,
    v1Default: true,
    direction: 'in',
    note:
      'Approximation: v2 has no account PSTN switch; true sets the default meeting audio to `both`, false to `voip` ' +
      '(computer audio only). v1 answers never show it, so it is input only.',
  },
];

/** v1 fields with no home in v2: parsed (a bad value is still a 300 naming it), then dropped. */
const collectionMethod = droppedField({
  v1: 'collection_method',
  type: v1.intOneOf([0, 1]),
  note: 'How the sub account is invoiced (0 automatic online billing, 1 manual invoice): v2 accounts, options, settings and billing have no such field. Accepted and dropped.',
});

const callOut = droppedField({
  v1: 'enable_call_out',
  type: v1.bool(),
  note: "Whether the account's users follow the master account's call-out type: v2 account settings have no call-out field (call-out countries belong to the audio plan). Accepted and dropped.",
});

/** Dropped fields of /ma/account/create. */
export const ACCOUNT_CREATE_DROPPED_ROWS: FieldTable = [collectionMethod];

/** Dropped fields of /ma/account/update (v1 takes enable_call_out on update only). */
export const ACCOUNT_UPDATE_DROPPED_ROWS: FieldTable = [collectionMethod, callOut];
