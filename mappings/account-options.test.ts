import { describe, expect, it } from 'vitest';
import { defaultAccountOptions, defaultAccountSettings } from '../src/sandbox/accounts/defaults.js';
import { getPath, toV1, toV2, withV1Defaults, type FieldRow } from '../src/v1/field-map.js';
import { bothWays } from '../test/support/codecs.js';
import { ACCOUNT_CREATE_DROPPED_ROWS, ACCOUNT_OPTION_ROWS, ACCOUNT_SETTING_ROWS, ACCOUNT_UPDATE_DROPPED_ROWS } from './account-options.js';

/** The tables written out: v1 field → v2 path, a form text, its v1 value, that value in v2, and the v1 default. */
const EXPECTED: Record<string, { v2: string; text: string; v1: unknown; v2Value: unknown; v1Default?: unknown }> = {
  enable_share_rc: { v2: 'options.share_rc', text: 'true', v1: true, v2Value: true, v1Default: false },
  share_rc: { v2: 'options.room_connectors', text: 'rc1,rc2', v1: 'rc1,rc2', v2Value: 'rc1,rc2' },
  enable_share_mc: { v2: 'options.share_mc', text: '1', v1: true, v2Value: true, v1Default: false },
  share_mc: { v2: 'options.meeting_connectors', text: 'mc1', v1: 'mc1', v2Value: 'mc1' },
  pay_mode: { v2: 'options.pay_mode', text: '0', v1: 0, v2Value: 'sub', v1Default: 1 },
  enable_enforce_login: { v2: 'schedule_meeting.enforce_login', text: 'TRUE', v1: true, v2Value: true, v1Default: false },
  enable_enforce_login_sd: { v2: 'schedule_meeting.enforce_login_with_domains', text: 'true', v1: true, v2Value: true, v1Default: false },
  enforce_login_domains: { v2: 'schedule_meeting.enforce_login_domains', text: 'a.com,b.com', v1: 'a.com,b.com', v2Value: 'a.com,b.com' },
  meeting_capacity: { v2: 'feature.meeting_capacity', text: '100', v1: 100, v2Value: 100 },
  disable_cmr_reminder: {
    v2: 'email_notification.cloud_recording_available_reminder',
    text: 'true',
    v1: true,
    v2Value: false,
    v1Default: false,
  },
  enable_only_host_download_cmr: { v2: 'recording.cloud_recording_download_host', text: 'true', v1: true, v2Value: true, v1Default: false },
  enable_same_account_access_cmr: {
    v2: 'recording.account_user_access_recording',
    text: 'true',
    v1: true,
    v2Value: true,
    v1Default: false,
  },
  enable_pstn: { v2: 'schedule_meeting.audio_type', text: 'false', v1: false, v2Value: 'voip', v1Default: true },
};

const ROWS: FieldRow[] = [...ACCOUNT_OPTION_ROWS, ...ACCOUNT_SETTING_ROWS];
/** What v2 holds, to check each path is a real v2 field: options under `options.`, settings as they are. */
const V2_ACCOUNT = { options: defaultAccountOptions(), ...defaultAccountSettings() };

describe('ACCOUNT_OPTION_ROWS and ACCOUNT_SETTING_ROWS: every row both ways', () => {
  it('has exactly the expected rows, one per v1 field', () => {
    expect(ROWS.map((row) => row.v1).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const row of ROWS) {
    const expected = EXPECTED[row.v1]!;
    it(`${row.v1} ↔ ${expected.v2}`, () => {
      expect(row.v2).toBe(expected.v2);
      expect(getPath(V2_ACCOUNT, row.v2)).not.toBeUndefined();
      const v1Value = row.type!.parse(expected.text);
      expect(v1Value).toBe(expected.v1);
      const v2 = toV2([row], { [row.v1]: v1Value });
      expect(getPath(v2, row.v2)).toBe(expected.v2Value);
      // Back again: through the table for rows v1 answers, through the codec for input-only rows.
      if (row.direction === 'in') expect(bothWays(row.codec).toV1(expected.v2Value)).toBe(expected.v1);
      else expect(toV1([row], v2)).toEqual({ [row.v1]: expected.v1 });
      expect(row.v1Default).toBe(expected.v1Default);
    });
  }

  it('reads both values of each two-valued codec both ways', () => {
    const both = (row: FieldRow, pairs: [unknown, unknown][]) => {
      for (const [v1Value, v2Value] of pairs) {
        expect(bothWays(row.codec).toV2(v1Value)).toBe(v2Value);
        expect(bothWays(row.codec).toV1(v2Value)).toBe(v1Value);
      }
    };
    const row = (name: string) => ROWS.find((r) => r.v1 === name)!;
    both(row('pay_mode'), [
      [0, 'sub'],
      [1, 'master'],
    ]);
    both(row('enable_pstn'), [
      [true, 'both'],
      [false, 'voip'],
    ]);
    both(row('disable_cmr_reminder'), [
      [true, false],
      [false, true],
    ]);
  });

  it('refuses what v1 refused: a capacity over 100, a pay_mode other than 0 or 1', () => {
    const row = (name: string) => ROWS.find((r) => r.v1 === name)!;
    expect(row('meeting_capacity').type!.safeParse('101').success).toBe(false);
    expect(row('pay_mode').type!.safeParse('2').success).toBe(false);
    expect(row('enable_pstn').type!.safeParse('yes').success).toBe(false);
  });

  it("a v1 create that names nothing gets v1's defaults in v2", () => {
    expect(toV2(ACCOUNT_OPTION_ROWS, withV1Defaults(ACCOUNT_OPTION_ROWS, {}))).toEqual({
      options: { share_rc: false, share_mc: false, pay_mode: 'master' },
    });
    expect(toV2(ACCOUNT_SETTING_ROWS, withV1Defaults(ACCOUNT_SETTING_ROWS, {}))).toEqual({
      schedule_meeting: { enforce_login: false, enforce_login_with_domains: false, audio_type: 'both' },
      email_notification: { cloud_recording_available_reminder: true },
      recording: { cloud_recording_download_host: false, account_user_access_recording: false },
    });
  });
});

describe('ACCOUNT_CREATE_DROPPED_ROWS and ACCOUNT_UPDATE_DROPPED_ROWS', () => {
  it('create drops collection_method; update drops it and enable_call_out', () => {
    expect(ACCOUNT_CREATE_DROPPED_ROWS.map((row) => row.v1)).toEqual(['collection_method']);
    expect(ACCOUNT_UPDATE_DROPPED_ROWS.map((row) => row.v1)).toEqual(['collection_method', 'enable_call_out']);
  });

  for (const row of ACCOUNT_UPDATE_DROPPED_ROWS) {
    it(`${row.v1}: checked like v1 checked it, sent nowhere, never answered`, () => {
      const [good, bad, value] = row.v1 === 'collection_method' ? ['0', '3', 0] : ['true', 'maybe', true];
      expect(row.type!.parse(good)).toBe(value);
      expect(row.type!.safeParse(bad).success).toBe(false);
      expect(toV2([row], { [row.v1]: value })).toEqual({});
      expect(row.direction).toBe('in');
      expect(toV1([row], { [row.v2]: 'anything' })).toEqual({});
      expect(ROWS.some((r) => r.v1 === row.v1)).toBe(false);
    });
  }
});
