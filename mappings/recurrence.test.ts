import { describe, expect, it } from 'vitest';
import { recurrenceCodec, recurrenceParam } from './recurrence.js';

const parse = (text: string) => recurrenceParam().safeParse(text);

describe('v1 recurrence (JSON text in a form field)', () => {
  it('takes the v1 fields, with numbers sent as text, and gives the v2 object back and forth', () => {
    const parsed = parse(
      '{"type":"3","repeat_interval":"1","monthly_week":-1,"monthly_week_day":6,"end_date_time":"2031-01-01T00:00:00Z"}',
    );
    expect(parsed.success).toBe(true);
    const v2 = recurrenceCodec.toV2(parsed.data!);
    expect(v2).toEqual({ type: 3, repeat_interval: 1, monthly_week: -1, monthly_week_day: 6, end_date_time: '2031-01-01T00:00:00Z' });
    expect(recurrenceCodec.toV1(v2)).toEqual(parsed.data);
  });

  it('weekly_days as one number or a comma list', () => {
    expect(parse('{"type":2,"weekly_days":3}').data).toEqual({ type: 2, weekly_days: '3' });
    expect(parse('{"type":2,"weekly_days":"1, 7"}').data).toEqual({ type: 2, weekly_days: '1,7' });
  });

  it.each([
    ['not JSON', '{type:2', /valid JSON/],
    ['no type', '{"repeat_interval":1}', /type/],
    ['bad type', '{"type":4}', /at most 3/],
    ['interval too large for weekly', '{"type":2,"repeat_interval":13}', /at most 12/],
    ['end_times over 50', '{"type":1,"end_times":51}', /at most 50/],
    ['both ends', '{"type":1,"end_times":2,"end_date_time":"2031-01-01T00:00:00Z"}', /together/],
    ['bad weekday', '{"type":2,"weekly_days":"8"}', /Sunday/],
    ['local end date', '{"type":1,"end_date_time":"2031-01-01T00:00:00"}', /UTC/],
  ])('refuses %s', (_, text, message) => {
    const parsed = parse(text);
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.message).toMatch(message);
  });
});
