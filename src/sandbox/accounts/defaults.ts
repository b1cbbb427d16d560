import type { AccountOptions, AccountSettings } from '../model/account.js';

/** A new account's options, with the v2 spec's defaults. */
export function defaultAccountOptions(): AccountOptions {
  return { share_rc: false, room_connectors: '', share_mc: false, meeting_connectors: '', pay_mode: 'master' };
}

/** A new account's settings, with the v2 spec's defaults, under today's names (`schedule_meeting`, `cloud_recording_available_reminder`; the old reference misspelt both). */
// eslint-disable-next-line max-lines-per-function -- data: one literal of the v2 spec's defaults, fresh for each account
export function defaultAccountSettings(): AccountSettings {
  const off = (names: string[]) => Object.fromEntries(names.map((n) => [n, false]));
  return {
    schedule_meeting: {
      host_video: false,
      participant_video: false,
      audio_type: 'both',
      join_before_host: false,
      enforce_login: false,
      enforce_login_with_domains: false,
      enforce_login_domains: '',
      not_store_meeting_topic: false,
      force_pmi_jbh_password: false,
    },
    in_meeting: {
      ...off([
        'e2e_encryption',
        'chat',
        'private_chat',
        'auto_saving_chat',
        'file_transfer',
        'feedback',
        'post_meeting_feedback',
        'co_host',
        'polling',
        'attendee_on_hold',
        'show_meeting_control_toolbar',
        'allow_show_vendor_windows',
        'annotation',
        'whiteboard',
        'webinar_question_answer',
        'anonymous_question_answer',
        'breakout_room',
        'closed_caption',
        'far_end_camera_control',
        'group_hd',
        'virtual_background',
        'watermark',
        'alert_guest_join',
        'auto_answer',
        'p2p_connetion',
        'p2p_ports',
        'sending_default_email_invites',
        'use_html_format_email',
        'dscp_marking',
        'stereo_audio',
        'original_audio',
        'screen_sharing',
        'remote_control',
        'attention_tracking',
      ]),
      ports_range: '',
      dscp_audio: 46,
      dscp_video: 34,
    },
    email_notification: off([
      'cloud_recording_available_reminder',
      'jbh_reminder',
      'cancel_meeting_reminder',
      'low_host_count_reminder',
      'alternative_host_reminder',
    ]),
    vendor_rooms: off([
      'upcoming_meeting_alert',
      'start_vendor_mirroring_manually',
      'weekly_system_restart',
      'list_meetings_with_calendar',
      'zr_post_meeting_feedback',
      'ultrasonic',
      'force_private_meeting',
      'hide_host_information',
      'cmr_for_instant_meeting',
      'auto_start_stop_scheduled_meetings',
    ]),
    security: off(['admin_change_name_pic', 'import_photos_from_devices', 'hide_billing_info']),
    recording: {
      ...off([
        'cloud_recording',
        'record_speaker_view',
        'record_gallery_view',
        'record_audio_file',
        'save_chat_text',
        'show_timestamp',
        'recording_audio_transcript',
        'cloud_recording_download_host',
        'account_user_access_recording',
        'auto_delete_cmr',
      ]),
      local_recording: true,
      cloud_recording_download: true,
      auto_recording: 'local',
      auto_delete_cmr_days: 30,
    },
    telephony: { third_party_audio: false, audio_conference_info: '' },
    integration: off(['vendor_a_calendar', 'vendor_a_drive', 'vendor_b', 'vendor_c', 'vendor_d_one_drive', 'vendor_e']),
    feature: { meeting_capacity: 100 },
  };
}
