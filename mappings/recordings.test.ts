import { describe, expect, it } from 'vitest';
import { NO_V2_FIELD, toV1, type FieldRow } from '../src/v1/field-map.js';
import { bothWays } from '../test/support/codecs.js';
import { RECORDING_FILE_ROWS, RECORDING_MEETING_ROWS } from './recordings.js';

/** A v2 GET /users/{userId}/recordings item, as the v2 reference types it (counts as strings). */
const V2_ITEM = {
  uuid: 'u==',
  id: 85746065432,
  account_id: 'acc',
  host_id: 'host',
  topic: 'Topic',
  start_time: '2024-05-01T08:00:00Z',
  duration: 30,
  total_size: '4324324324',
  recording_count: '2',
};
const V2_FILE = {
  id: 'f',
  meeting_id: 'u==',
  recording_start: '2024-05-01T08:00:00Z',
  recording_end: '2024-05-01T08:30:00Z',
  file_type: 'M4A',
  file_size: 432432,
  status: 'completed',
  play_url: 'https://x/rec/play/1',
  download_url: 'https://x/rec/download/1',
  recording_type: 'audio_only',
};

/** v1 value of each field read from the samples: numbers where v1 printed numbers, the meeting number as text. */
const EXPECTED_V1: Record<string, unknown> = {
  uuid: 'u==',
  meeting_number: 85746065432,
  host_id: 'host',
  account_id: 'acc',
  topic: 'Topic',
  start_time: '2024-05-01T08:00:00Z',
  duration: 30,
  total_size: 4324324324,
  recording_count: 2,
};

describe('RECORDING_MEETING_ROWS and RECORDING_FILE_ROWS: every row both ways', () => {
  for (const row of RECORDING_MEETING_ROWS as FieldRow[]) {
    it(`${row.v1} ← ${row.v2}`, () => {
      if (row.v2 === NO_V2_FIELD) {
        // timezone: not in v2's item; the translator answers the host's.
        expect(toV1([row], V2_ITEM)).toEqual({});
        return;
      }
      const v2Value = V2_ITEM[row.v2 as keyof typeof V2_ITEM];
      expect(toV1([row], V2_ITEM)).toEqual({ [row.v1]: EXPECTED_V1[row.v1] });
      expect(bothWays(row.codec).toV2(EXPECTED_V1[row.v1])).toBe(v2Value);
    });
  }

  for (const row of RECORDING_FILE_ROWS as FieldRow[]) {
    it(`file ${row.v1} ← ${row.v2}`, () => {
      const v2Value = V2_FILE[row.v2 as keyof typeof V2_FILE];
      expect(toV1([row], V2_FILE)).toEqual({ [row.v1]: v2Value });
      expect(bothWays(row.codec).toV2(v2Value)).toBe(v2Value);
    });
  }

  it("leaves out v2's recording_type, which v1 files do not have", () => {
    expect(Object.keys(toV1(RECORDING_FILE_ROWS, V2_FILE))).not.toContain('recording_type');
  });
});
