import { describe, expect, it } from 'vitest';
import { defaultUserSettings } from '../src/sandbox/users/defaults.js';
import {
  compositeInputShape,
  compositesNeedCurrent,
  compositesToV1,
  compositesToV2,
  compositeToV1,
  compositeToV2,
  getPath,
  toV1,
  toV2,
  withCompositeDefaults,
  withV1Defaults,
  type FieldRow,
} from '../src/v1/field-map.js';
import { AUTO_RECORDING, ENTRY_EXIT_CHIME, USER_OPTIONS, USER_OPTION_COMPOSITES, USER_RECORDING_VIEWS } from './user-options.js';

/** The spec of the table, written out: v1 field → v2 settings path, and whether the value is negated. */
const EXPECTED: Record<string, { v2: string; negated?: true; sample?: number }> = {
  disable_chat: { v2: 'in_meeting.chat', negated: true },
  enable_e2e_encryption: { v2: 'in_meeting.e2e_encryption' },
  enable_silent_mode: { v2: 'in_meeting.attendee_on_hold' },
  disable_group_hd: { v2: 'in_meeting.group_hd', negated: true },
  disable_recording: { v2: 'recording.local_recording', negated: true },
  enable_cmr: { v2: 'recording.cloud_recording' },
  disable_feedback: { v2: 'in_meeting.feedback', negated: true },
  disable_jbh_reminder: { v2: 'email_notification.jbh_reminder', negated: true },
  enable_breakout_room: { v2: 'in_meeting.breakout_room' },
  enable_polling: { v2: 'in_meeting.polling' },
  enable_annotation: { v2: 'in_meeting.annotation' },
  enable_share_dual_camera: { v2: 'in_meeting.share_dual_camera' },
  enable_far_end_camera_control: { v2: 'in_meeting.far_end_camera_control' },
  disable_private_chat: { v2: 'in_meeting.private_chat', negated: true },
  disable_cancel_meeting_notification: { v2: 'email_notification.cancel_meeting_reminder', negated: true },
  enable_remote_support: { v2: 'in_meeting.remote_support' },
  enable_file_transfer: { v2: 'in_meeting.file_transfer' },
  enable_virtual_background: { v2: 'in_meeting.virtual_background' },
  enable_attention_tracking: { v2: 'in_meeting.attention_tracking' },
  enable_waiting_room: { v2: 'in_meeting.waiting_room' },
  enable_closed_caption: { v2: 'in_meeting.closed_caption' },
  enable_co_host: { v2: 'in_meeting.co_host' },
  enable_auto_saving_chats: { v2: 'in_meeting.auto_saving_chat' },
  enable_phone_participants_password: { v2: 'schedule_meeting.pstn_password_protected' },
  enable_auto_delete_cmr: { v2: 'recording.auto_delete_cmr' },
  auto_delete_cmr_days: { v2: 'recording.auto_delete_cmr_days', sample: 45 },
  enable_webinar: { v2: 'feature.webinar' },
  enable_large: { v2: 'feature.large_meeting' },
  meeting_capacity: { v2: 'feature.meeting_capacity', sample: 50 },
  webinar_capacity: { v2: 'feature.webinar_capacity', sample: 500 },
  large_capacity: { v2: 'feature.large_meeting_capacity', sample: 300 },
  enable_record_speaker_view: { v2: 'recording.record_speaker_view' },
  enable_record_gallery_view: { v2: 'recording.record_gallery_view' },
  enable_record_audio_file: { v2: 'recording.record_audio_file' },
};

const ROWS: FieldRow[] = [...USER_OPTIONS, ...USER_RECORDING_VIEWS].filter((row) => row.direction !== 'in');
const v2Settings = defaultUserSettings();

describe('USER_OPTIONS and USER_RECORDING_VIEWS: every row both ways', () => {
  it('has exactly the expected rows, one per v1 field', () => {
    expect(ROWS.map((row) => row.v1).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const row of ROWS) {
    const expected = EXPECTED[row.v1]!;
    const samples: unknown[] = expected.sample === undefined ? [true, false] : [expected.sample];
    it(`${row.v1} ↔ ${expected.v2}`, () => {
      expect(row.v2).toBe(expected.v2);
      // The v2 path is a real v2 user setting.
      expect(getPath(v2Settings, row.v2)).not.toBeUndefined();
      for (const sample of samples) {
        const v2 = toV2([row], { [row.v1]: sample });
        const v2Value = typeof sample === 'boolean' && expected.negated ? !sample : sample;
        expect(getPath(v2, row.v2)).toBe(v2Value);
        expect(toV1([row], v2)).toEqual({ [row.v1]: sample });
      }
      // The v1 type reads the form text.
      const text = expected.sample === undefined ? 'TRUE' : String(expected.sample);
      expect(row.type!.parse(text)).toBe(expected.sample ?? true);
    });
  }

  it('capacity 0 (inherit / none) writes nothing and reads back a v2 value untouched', () => {
    for (const field of ['meeting_capacity', 'webinar_capacity', 'large_capacity']) {
      expect(toV2(USER_OPTIONS, { [field]: 0 })).toEqual({});
    }
    expect(toV1(USER_OPTIONS, { feature: { large_meeting_capacity: 0, meeting_capacity: 100 } })).toMatchObject({
      large_capacity: 0,
      meeting_capacity: 100,
    });
  });

  it('rejects malformed values with a message', () => {
    const row = (name: string) => ROWS.find((r) => r.v1 === name)!;
    expect(row('disable_chat').type!.safeParse('yes').success).toBe(false);
    expect(row('auto_delete_cmr_days').type!.safeParse('61').success).toBe(false);
    expect(row('webinar_capacity').type!.safeParse('250').success).toBe(false);
    expect(row('large_capacity').type!.safeParse('0').success).toBe(true);
    expect(row('meeting_capacity').type!.safeParse('-1').success).toBe(false);
  });
});

describe('v1 defaults of a create', () => {
  it('turn into the v1 user: chat, feedback, group HD, local recording on; annotation on; no auto recording; no chime', () => {
    const v2 = {
      ...toV2(USER_OPTIONS, withV1Defaults(USER_OPTIONS, {})),
    };
    const composites = compositesToV2(USER_OPTION_COMPOSITES, withCompositeDefaults(USER_OPTION_COMPOSITES, {}));
    expect(v2).toMatchObject({
      in_meeting: {
        chat: true,
        private_chat: true,
        feedback: true,
        group_hd: true,
        annotation: true,
        attendee_on_hold: false,
        e2e_encryption: false,
      },
      recording: { local_recording: true, cloud_recording: false, auto_delete_cmr: false },
      email_notification: { jbh_reminder: true, cancel_meeting_reminder: true },
      feature: { webinar: false, large_meeting: false },
    });
    expect((v2.feature as Record<string, unknown>).meeting_capacity).toBeUndefined();
    expect(composites).toEqual({ recording: { auto_recording: 'none' }, in_meeting: { entry_exit_chime: 'none' } });
  });

  it('leave given values alone', () => {
    expect(withV1Defaults(USER_OPTIONS, { disable_chat: true }).disable_chat).toBe(true);
    expect(withCompositeDefaults(USER_OPTION_COMPOSITES, { option_enter_exit_chime_type: 1 }).option_enter_exit_chime_type).toBe(1);
  });
});

describe('composite: enable_auto_recording + enable_cloud_auto_recording ↔ recording.auto_recording', () => {
  const cases: [boolean, boolean, string][] = [
    [false, false, 'none'],
    [true, false, 'local'],
    [true, true, 'cloud'],
    [false, true, 'cloud'],
  ];
  for (const [auto, cloud, v2] of cases) {
    it(`(${auto}, ${cloud}) → ${v2}, and back`, () => {
      const given = { enable_auto_recording: auto, enable_cloud_auto_recording: cloud };
      expect(compositeToV2(AUTO_RECORDING, given)).toBe(v2);
      expect(compositesToV2([AUTO_RECORDING], given)).toEqual({ recording: { auto_recording: v2 } });
      // Cloud reads back with enable_auto_recording true (v1: it "becomes true").
      expect(compositesToV1([AUTO_RECORDING], { recording: { auto_recording: v2 } })).toEqual({
        enable_auto_recording: auto || cloud,
        enable_cloud_auto_recording: cloud,
      });
    });
  }
  for (const v2 of ['none', 'local', 'cloud']) {
    it(`${v2} → v1 → ${v2}`, () => expect(compositeToV2(AUTO_RECORDING, compositeToV1(AUTO_RECORDING, v2))).toBe(v2));
  }
  it('a partial update completes the other field from the current v2 value', () => {
    const current = { recording: { auto_recording: 'cloud' } };
    expect(compositesNeedCurrent([AUTO_RECORDING], { enable_cloud_auto_recording: false })).toBe(true);
    expect(compositesToV2([AUTO_RECORDING], { enable_cloud_auto_recording: false }, current)).toEqual({
      recording: { auto_recording: 'local' },
    });
    expect(compositesToV2([AUTO_RECORDING], { enable_auto_recording: false }, { recording: { auto_recording: 'local' } })).toEqual({
      recording: { auto_recording: 'none' },
    });
    expect(compositesToV2([AUTO_RECORDING], { enable_auto_recording: true }, { recording: { auto_recording: 'none' } })).toEqual({
      recording: { auto_recording: 'local' },
    });
    expect(() => compositesToV2([AUTO_RECORDING], { enable_auto_recording: true })).toThrow(/current/);
  });
});

describe('composite: enable_enter_exit_chime + option_enter_exit_chime_type ↔ in_meeting.entry_exit_chime', () => {
  const cases: [boolean, number, string][] = [
    [false, 0, 'none'],
    [true, 0, 'all'],
    [true, 1, 'host'],
    [false, 1, 'none'],
  ];
  for (const [on, type, v2] of cases) {
    it(`(${on}, ${type}) → ${v2}, and back`, () => {
      const given = { enable_enter_exit_chime: on, option_enter_exit_chime_type: type };
      expect(compositesToV2([ENTRY_EXIT_CHIME], given)).toEqual({ in_meeting: { entry_exit_chime: v2 } });
      // With the chime off v2 keeps no "heard by": the type reads back 0.
      expect(compositesToV1([ENTRY_EXIT_CHIME], { in_meeting: { entry_exit_chime: v2 } })).toEqual({
        enable_enter_exit_chime: on,
        option_enter_exit_chime_type: on ? type : 0,
      });
    });
  }
  for (const v2 of ['none', 'all', 'host']) {
    it(`${v2} → v1 → ${v2}`, () => expect(compositeToV2(ENTRY_EXIT_CHIME, compositeToV1(ENTRY_EXIT_CHIME, v2))).toBe(v2));
  }
  it('the chime type alone keeps the chime on or off as it is', () => {
    expect(compositesToV2([ENTRY_EXIT_CHIME], { option_enter_exit_chime_type: 1 }, { in_meeting: { entry_exit_chime: 'all' } })).toEqual({
      in_meeting: { entry_exit_chime: 'host' },
    });
    expect(compositesToV2([ENTRY_EXIT_CHIME], { option_enter_exit_chime_type: 1 }, { in_meeting: { entry_exit_chime: 'none' } })).toEqual({
      in_meeting: { entry_exit_chime: 'none' },
    });
  });
  it('types read the form text and refuse other values', () => {
    const shape = compositeInputShape([ENTRY_EXIT_CHIME]);
    expect(shape.option_enter_exit_chime_type!.parse('1')).toBe(1);
    expect(shape.option_enter_exit_chime_type!.safeParse('2').success).toBe(false);
    expect(shape.enable_enter_exit_chime!.parse('0')).toBe(false);
  });
  it('every composite v2 path is a real v2 setting', () => {
    for (const composite of USER_OPTION_COMPOSITES) expect(getPath(v2Settings, composite.v2)).not.toBeUndefined();
  });
});

describe('dropped fields', () => {
  it('track_id is accepted, never written, never shown, and says why', () => {
    const row = USER_OPTIONS.find((r) => r.v1 === 'track_id')!;
    expect(row.direction).toBe('in');
    expect(row.type.parse('partner-7')).toBe('partner-7');
    expect(toV2(USER_OPTIONS, { track_id: 'partner-7' })).toEqual({});
    expect(toV1([row], { '(none)': 'x' })).toEqual({});
    expect(row.note).toMatch(/dropped/);
    expect(USER_OPTIONS.filter((r) => r.direction === 'in').map((r) => r.v1)).toEqual(['track_id']);
  });
});
