import { describe, expect, it } from 'vitest';
import { getPath, NO_V2_FIELD, toV1, toV2, withV1Defaults, type FieldTable } from '../src/v1/field-map.js';
import { mergeAlternativeHosts } from '../src/translators/sessions/body.js';
import { MEETING_OPTIONS, WEBINAR_OPTIONS, registrationRequired } from './scheduling-options.js';

/** A v1 form text for every row, and the v2 value it must become. */
const SAMPLES: Record<string, { form: string; v2: unknown }> = {
  topic: { form: 'Quarterly review', v2: 'Quarterly review' },
  start_time: { form: '2030-01-02T03:04:05Z', v2: '2030-01-02T03:04:05Z' },
  duration: { form: '45', v2: 45 },
  timezone: { form: 'Europe/Paris', v2: 'Europe/Paris' },
  password: { form: 'a@b-c_d*9', v2: 'a@b-c_d*9' },
  recurrence: {
    form: '{"type":2,"repeat_interval":1,"weekly_days":"2,4","end_times":3}',
    v2: { type: 2, repeat_interval: 1, weekly_days: '2,4', end_times: 3 },
  },
  registration_type: { form: '3', v2: 3 },
  option_host_video: { form: 'false', v2: false },
  option_audio: { form: 'telephony', v2: 'telephony' },
  option_enforce_login: { form: 'true', v2: true },
  option_enforce_login_domains: { form: 'example.com', v2: 'example.com' },
  option_alternative_hosts: { form: 'alt@example.com', v2: 'alt@example.com' },
  option_alternative_host_ids: { form: 'u123', v2: 'u123' },
  option_auto_record_type: { form: 'cloud', v2: 'cloud' },
  option_jbh: { form: 'TRUE', v2: true },
  option_participants_video: { form: '0', v2: false },
  option_cn_meeting: { form: '1', v2: true },
  option_in_meeting: { form: 'true', v2: true },
  option_use_pmi: { form: 'true', v2: true },
  option_registration: { form: 'true', v2: 0 },
  agenda: { form: 'What we will do', v2: 'What we will do' },
  approval_type: { form: '1', v2: 1 },
  option_panelist_video: { form: 'false', v2: false },
  option_practice_session: { form: 'true', v2: true },
  option_close_registration: { form: 'true', v2: true },
  option_show_share_button: { form: 'true', v2: true },
  option_allow_multiple_devices: { form: 'true', v2: true },
  // No v2 home: parsed, then left out of the v2 body.
  option_start_type: { form: 'screen_share', v2: undefined },
  option_panelists_reminder: { form: 'true', v2: undefined },
  language: { form: 'zh-CN', v2: undefined },
};
const TYPE_SAMPLES = { meeting: { form: '8', v2: 8 }, webinar: { form: '9', v2: 9 } };

function everyRowBothWays(name: 'meeting' | 'webinar', table: FieldTable) {
  describe(`${name} option table`, () => {
    for (const row of table) {
      it(`${row.v1} ↔ ${row.v2}`, () => {
        const sample = row.v1 === 'type' ? TYPE_SAMPLES[name] : SAMPLES[row.v1];
        expect(sample, `a sample for ${row.v1}`).toBeDefined();
        const v1Value = row.type!.parse(sample!.form);
        const v2 = toV2([row], { [row.v1]: v1Value });
        if (row.v2 === NO_V2_FIELD) {
          expect(v2).toEqual({});
          return;
        }
        expect(getPath(v2, row.v2)).toEqual(sample!.v2);
        if (row.direction === 'in') return; // input only: read back through its partner row (option_alternative_hosts)
        expect(toV1([row], v2)).toEqual({ [row.v1]: v1Value });
      });
    }
  });
}

everyRowBothWays('meeting', MEETING_OPTIONS);
everyRowBothWays('webinar', WEBINAR_OPTIONS);

describe('v1 create defaults (they differ from v2)', () => {
  it('meetings: host and participant video on, local recording, no registration', () => {
    const body = toV2(MEETING_OPTIONS, withV1Defaults(MEETING_OPTIONS, {}));
    expect(body['settings']).toMatchObject({
      host_video: true,
      participant_video: true,
      auto_recording: 'local',
      join_before_host: false,
      audio: 'both',
      approval_type: 2,
      use_pmi: false,
      cn_meeting: false,
      in_meeting: false,
      meeting_authentication: false,
    });
  });

  it('webinars: host and panelist video on, local recording, no registration, no practice session', () => {
    const body = toV2(WEBINAR_OPTIONS, withV1Defaults(WEBINAR_OPTIONS, {}));
    expect(body['settings']).toMatchObject({
      host_video: true,
      panelists_video: true,
      auto_recording: 'local',
      approval_type: 2,
      practice_session: false,
    });
  });

  it('a given value wins over the default', () => {
    const body = toV2(MEETING_OPTIONS, withV1Defaults(MEETING_OPTIONS, { option_host_video: false }));
    expect(getPath(body, 'settings.host_video')).toBe(false);
  });
});

describe('special rows', () => {
  it('option_registration reads v2 manual approval (1) as registration required', () => {
    expect(registrationRequired.toV1(1)).toBe(true);
    expect(registrationRequired.toV1(2)).toBe(false);
    expect(registrationRequired.toV2(false)).toBe(2);
  });

  it('alternative host emails and ids merge into one v2 comma list, each once', () => {
    expect(mergeAlternativeHosts('a@x.com, b@x.com', 'u1,u2,a@x.com')).toBe('a@x.com,b@x.com,u1,u2');
    expect(mergeAlternativeHosts(undefined, 'u1')).toBe('u1');
    expect(mergeAlternativeHosts(undefined, undefined)).toBeUndefined();
  });

  it('password: at most 10 of a-z A-Z 0-9 @ - _ *', () => {
    const row = MEETING_OPTIONS.find((r) => r.v1 === 'password')!;
    expect(row.type.safeParse('abc def').success).toBe(false);
    expect(row.type.safeParse('12345678901').success).toBe(false);
  });

  it('topic: at most 300 characters', () => {
    const row = MEETING_OPTIONS.find((r) => r.v1 === 'topic')!;
    expect(row.type.safeParse('x'.repeat(300)).success).toBe(true);
    expect(row.type.safeParse('x'.repeat(301)).success).toBe(false);
  });

  it('type numbers: 1/2/3/8 meetings, 5/6/9 webinars', () => {
    const meetingType = MEETING_OPTIONS.find((r) => r.v1 === 'type')!.type;
    const webinarType = WEBINAR_OPTIONS.find((r) => r.v1 === 'type')!.type;
    for (const t of ['1', '2', '3', '8']) expect(meetingType.safeParse(t).success).toBe(true);
    for (const t of ['5', '4', '9x']) expect(meetingType.safeParse(t).success).toBe(false);
    for (const t of ['5', '6', '9']) expect(webinarType.safeParse(t).success).toBe(true);
    expect(webinarType.safeParse('2').success).toBe(false);
  });

  it('dropped fields are input only, say why, and still refuse bad values', () => {
    const droppedRows = [...MEETING_OPTIONS, ...WEBINAR_OPTIONS].filter((r) => r.v2 === NO_V2_FIELD);
    expect(new Set(droppedRows.map((r) => r.v1))).toEqual(new Set(['option_start_type', 'option_panelists_reminder', 'language']));
    for (const row of droppedRows) {
      expect(row.direction).toBe('in');
      expect(row.note).toMatch(/accepted and dropped/);
    }
    const startType = droppedRows.find((r) => r.v1 === 'option_start_type')!.type;
    expect(startType.safeParse('screen_share').success).toBe(true);
    expect(startType.safeParse('audio').success).toBe(false);
  });
});
