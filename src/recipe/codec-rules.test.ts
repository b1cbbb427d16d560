import { describe, expect, it } from 'vitest';
import { USER_TYPE } from '../../mappings/user-fields.js';
import { recurrenceCodec, recurrenceParam } from '../../mappings/recurrence.js';
import { ALL_ENDPOINTS } from '../translators/endpoints.js';
import { applyCodec, codecOf, readValue } from './plan-values.js';

/**
 * A codec the recipe carries as data applies what the translator's codec does: the recurrence's
 * field rule (the v1 JSON text, read as the v1 schema reads it, as v2 takes it) and the user type's
 * lookup tables, each held to the codec's own functions over the values v1 clients send.
 */

const RECURRENCES = [
  '{"type":1,"end_times":2}',
  '{"type":"2","repeat_interval":"2","weekly_days":"2, 4","end_date_time":"2035-01-01T00:00:00Z"}',
  '{"type":3,"monthly_week":-1,"monthly_week_day":"2","end_times":"5"}',
  '{"type":2,"weekly_days":3,"repeat_interval":1}',
  '{"type":3,"monthly_day":"15","end_times":3}',
];

describe('codecs the recipe carries as data', () => {
  it("read a recurrence's JSON text as the translator reads it, both ways", () => {
    const codec = codecOf(recurrenceCodec);
    expect(codec).toMatchObject({ kind: 'json-fields' });
    const type = recurrenceParam();
    for (const text of RECURRENCES) {
      const v2 = recurrenceCodec.toV2(type.parse(text));
      expect(applyCodec(codec, readValue(text, 'string'), 'toV2'), text).toEqual(v2);
      expect(applyCodec(codec, v2, 'toV1'), text).toEqual(recurrenceCodec.toV1(v2));
    }
    // Every row that sends a recurrence carries the rule, not translator code.
    const rows = ALL_ENDPOINTS.flatMap((e) => (e.tables ?? []).flat()).filter((row) => row.v1 === 'recurrence');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(codecOf(row.codec).kind).toBe('json-fields');
  });

  it("send and read back the user type as the translator's codec does", () => {
    const codec = codecOf(USER_TYPE);
    for (const v1 of [1, 2, 3]) expect(applyCodec(codec, v1, 'toV2'), String(v1)).toBe(USER_TYPE.toV2(v1));
    for (const v2 of [1, 2, 4, 99]) expect(applyCodec(codec, v2, 'toV1'), String(v2)).toBe(USER_TYPE.toV1(v2));
  });
});
