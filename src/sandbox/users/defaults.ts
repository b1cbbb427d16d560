import type { UserSettings } from '../model/user.js';

/**
 * A new user's settings, with the defaults of the v2 spec where it states them
 * (and the reference OpenAPI's where ours is silent).
 */
export function defaultUserSettings(): UserSettings {
  return {
    schedule_meeting: {
      host_video: false,
      participants_video: false,
      audio_type: 'voip',
      join_before_host: false,
      force_pmi_jbh_password: false,
      pstn_password_protected: false,
    },
    in_meeting: {
      e2e_encryption: false,
      chat: false,
      private_chat: false,
      auto_saving_chat: false,
      entry_exit_chime: 'all',
      record_play_voice: false,
      file_transfer: false,
      feedback: false,
      co_host: false,
      polling: false,
      attendee_on_hold: false,
      annotation: false,
      remote_control: false,
      non_verbal_feedback: false,
      breakout_room: false,
      remote_support: false,
      closed_caption: false,
      group_hd: false,
      virtual_background: false,
      far_end_camera_control: false,
      share_dual_camera: false,
      attention_tracking: false,
      waiting_room: false,
    },
    email_notification: {
      jbh_reminder: false,
      cancel_meeting_reminder: false,
      alternative_host_reminder: false,
    },
    recording: {
      local_recording: true,
      cloud_recording: false,
      record_speaker_view: false,
      record_gallery_view: false,
      record_audio_file: false,
      save_chat_text: false,
      show_timestamp: false,
      recording_audio_transcript: false,
      auto_recording: 'local',
      auto_delete_cmr: false,
      auto_delete_cmr_days: 30,
    },
    telephony: {
      third_party_audio: false,
      audio_conference_info: '',
      show_international_numbers_link: false,
    },
    feature: {
      meeting_capacity: 100,
      large_meeting: false,
      large_meeting_capacity: 0,
      webinar: false,
      webinar_capacity: 0,
      cn_meeting: false,
      in_meeting: false,
    },
  };
}
