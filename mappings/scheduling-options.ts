import { droppedField, fieldTable, type Codec } from '../src/v1/field-map.js';
import { v1 } from '../src/v1/param-types.js';
import { recurrenceCodec, recurrenceParam } from './recurrence.js';

/**
 * Meetings and webinars: where each v1 scheduling field lives in the v2 meeting / webinar object
 * (paths relative to it; options under `settings`). One set of common rows, plus the few rows
 * only one kind has. `v1Default` is v1's create default where the v1 call omits the field — it
 * differs from v2's on purpose: v1 started host and participant (panelist) video on and recorded
 * locally by default; v2 takes video from the host's settings and does not record.
 */

/** Password characters and length, as both versions state them. */
const password = () =>
  v1.string({ max: 10 }).refine((p) => /^[a-zA-Z0-9@\-_*]*$/.test(p), 'May only contain the characters a-z A-Z 0-9 @ - _ *.');

/** v1 `option_registration` (registration required) ↔ v2 `approval_type` (2 = no registration). */
export const registrationRequired: Codec<boolean, number> = {
  name: 'true↔0 (automatic approval), false↔2 (no registration); v2 1 (manual) reads as true',
  toV2: (required) => (required ? 0 : 2),
  toV1: (approvalType) => approvalType !== 2,
};

const audio = () => v1.oneOf(['both', 'telephony', 'voip']);

/** Rows both kinds share. */
export const COMMON_SCHEDULING_ROWS = fieldTable([
  { v1: 'topic', v2: 'topic', type: v1.string({ max: 300 }) },
  {
    v1: 'start_time',
    v2: 'start_time',
    type: v1.dateTime(),
    note: 'UTC with Z; without Z it is local time in `timezone` (v2 then requires timezone on create).',
  },
  { v1: 'duration', v2: 'duration', type: v1.int({ min: 0 }) },
  { v1: 'timezone', v2: 'timezone', type: v1.string() },
  { v1: 'password', v2: 'password', type: password() },
  {
    v1: 'recurrence',
    v2: 'recurrence',
    type: recurrenceParam(),
    codec: recurrenceCodec,
    note: 'A JSON text in v1, an object in v2 (same field names). Not part of the v1 outputs.',
  },
  { v1: 'registration_type', v2: 'settings.registration_type', type: v1.intOneOf([1, 2, 3]), v1Default: 1 },
  { v1: 'option_host_video', v2: 'settings.host_video', type: v1.bool(), v1Default: true },
  { v1: 'option_audio', v2: 'settings.audio', type: audio(), v1Default: 'both' },
  {
    v1: 'option_enforce_login',
    v2: 'settings.meeting_authentication',
    type: v1.bool(),
    v1Default: false,
    note: "Only signed-in users join. Today's v2 takes it as meeting_authentication (a meeting no longer takes enforce_login; answers still carry it, deprecated).",
  },
  {
    v1: 'option_enforce_login_domains',
    v2: 'settings.authentication_domains',
    type: v1.string(),
    note: "The domains signed-in users must be of: today's authentication_domains (enforce_login_domains is deprecated).",
  },
  {
    v1: 'option_alternative_hosts',
    v2: 'settings.alternative_hosts',
    type: v1.string(),
    note: 'Emails. Merged with option_alternative_host_ids into the one v2 comma list; read back as v2 holds it (emails and ids as given).',
  },
  {
    v1: 'option_alternative_host_ids',
    v2: 'settings.alternative_hosts',
    type: v1.idsText(),
    direction: 'in',
    note: 'User ids, merged into settings.alternative_hosts with option_alternative_hosts (v2 takes emails or ids); v1 outputs show them in option_alternative_hosts.',
  },
  { v1: 'option_auto_record_type', v2: 'settings.auto_recording', type: v1.oneOf(['local', 'cloud', 'none']), v1Default: 'local' },
]);

const optionStartType = droppedField({
  v1: 'option_start_type',
  type: v1.oneOf(['video', 'screen_share']),
  note: 'Deprecated in v1 and absent from v2: accepted and dropped; outputs answer `video`, the v1 default.',
});

/** Meeting-only rows. */
const MEETING_ROWS = fieldTable([
  {
    v1: 'type',
    v2: 'type',
    type: v1.intOneOf([1, 2, 3, 8]),
    note: '1 instant, 2 scheduled, 3 recurring no fixed time, 8 recurring fixed time (same numbers in v2).',
  },
  { v1: 'option_jbh', v2: 'settings.join_before_host', type: v1.bool(), v1Default: false },
  { v1: 'option_participants_video', v2: 'settings.participant_video', type: v1.bool(), v1Default: true },
  { v1: 'option_cn_meeting', v2: 'settings.cn_meeting', type: v1.bool(), v1Default: false },
  { v1: 'option_in_meeting', v2: 'settings.in_meeting', type: v1.bool(), v1Default: false },
  { v1: 'option_use_pmi', v2: 'settings.use_pmi', type: v1.bool(), v1Default: false },
  { v1: 'option_registration', v2: 'settings.approval_type', type: v1.bool(), codec: registrationRequired, v1Default: false },
  optionStartType,
]);

/** Webinar-only rows. */
const WEBINAR_ROWS = fieldTable([
  {
    v1: 'type',
    v2: 'type',
    type: v1.intOneOf([5, 6, 9]),
    v1Default: 5,
    note: '5 webinar, 6 recurring no fixed time, 9 recurring fixed time (same numbers in v2). A create without it is a webinar (5), as clients send it.',
  },
  { v1: 'agenda', v2: 'agenda', type: v1.string() },
  { v1: 'approval_type', v2: 'settings.approval_type', type: v1.intOneOf([0, 1, 2]), v1Default: 2 },
  { v1: 'option_panelist_video', v2: 'settings.panelists_video', type: v1.bool(), v1Default: true },
  { v1: 'option_practice_session', v2: 'settings.practice_session', type: v1.bool(), v1Default: false },
  { v1: 'option_close_registration', v2: 'settings.close_registration', type: v1.bool() },
  { v1: 'option_show_share_button', v2: 'settings.show_share_button', type: v1.bool() },
  { v1: 'option_allow_multiple_devices', v2: 'settings.allow_multiple_devices', type: v1.bool() },
  optionStartType,
  droppedField({
    v1: 'option_panelists_reminder',
    type: v1.bool(),
    note: 'v2 webinar settings have no panelist reminder email switch: accepted and dropped.',
  }),
  droppedField({
    v1: 'language',
    type: v1.oneOf(['en-US', 'en', 'zh-CN', 'zh', 'en-ES', 'es', 'fr-FR', 'fr']),
    note: 'Language of the email to panelists; v2 POST /webinars/{id}/panelists takes no language: accepted and dropped.',
  }),
]);

export const MEETING_OPTIONS = fieldTable([...COMMON_SCHEDULING_ROWS, ...MEETING_ROWS]);
export const WEBINAR_OPTIONS = fieldTable([...COMMON_SCHEDULING_ROWS, ...WEBINAR_ROWS]);
