import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { droppedField, type CompositeMapping, type FieldTable } from './field-map.js';
import { v1FieldNamer } from './field-naming.js';

const OPTIONS: FieldTable = [
  { v1: 'option_audio', v2: 'settings.audio', type: z.string() },
  { v1: 'recurrence', v2: 'recurrence', type: z.string() },
  { v1: 'created_at', v2: 'settings.audio', direction: 'out' },
  droppedField({ v1: 'option_language', type: z.string(), note: 'no v2 home' }),
];
const ACCOUNT_OPTIONS: FieldTable = [{ v1: 'share_rc', v2: 'options.share_rc', type: z.boolean() }];
const CONTACT: FieldTable = [{ v1: 'zip_code', v2: 'zip', type: z.string() }];
const AUTO_RECORDING: CompositeMapping = {
  name: 'auto recording',
  fields: { enable_auto_recording: { type: z.boolean() }, enable_cloud_auto_recording: { type: z.boolean() } },
  v2: 'recording.auto_recording',
  combinations: [],
};

describe('v1FieldNamer', () => {
  it("names a table's input row by its v2 path, and nothing for output-only or dropped rows", () => {
    const v1FieldOf = v1FieldNamer({ tables: [OPTIONS] });
    expect(v1FieldOf('settings.audio')).toBe('option_audio');
    expect(v1FieldOf('(none)')).toBeUndefined();
    expect(v1FieldOf('settings.video')).toBeUndefined();
  });

  it("names a path inside a field's value by that field (v2 checks inside what v1 sent whole)", () => {
    const v1FieldOf = v1FieldNamer({ tables: [OPTIONS] });
    expect(v1FieldOf('recurrence.weekly_days')).toBe('recurrence');
    expect(v1FieldOf('recurrence.end_times.0')).toBe('recurrence');
    expect(v1FieldOf('recurrences')).toBeUndefined();
  });

  it('names every v1 field of a composite', () => {
    expect(v1FieldNamer({ composites: [AUTO_RECORDING] })('recording.auto_recording')).toBe(
      'enable_auto_recording, enable_cloud_auto_recording',
    );
  });

  it('finds a moved table under its path with a prefix added or stripped, and under its own path too', () => {
    const v1FieldOf = v1FieldNamer({
      tables: [ACCOUNT_OPTIONS],
      moved: [
        { table: ACCOUNT_OPTIONS, strip: 'options.' },
        { table: CONTACT, add: 'contact.' },
      ],
    });
    expect(v1FieldOf('share_rc')).toBe('share_rc');
    expect(v1FieldOf('options.share_rc')).toBe('share_rc');
    expect(v1FieldOf('contact.zip')).toBe('zip_code');
    expect(v1FieldOf('zip')).toBeUndefined();
  });

  it('lets overrides win over the tables, and name what no table says', () => {
    const v1FieldOf = v1FieldNamer({ tables: [OPTIONS], overrides: { 'settings.audio': 'audio', members: 'member_ids' } });
    expect(v1FieldOf('settings.audio')).toBe('audio');
    expect(v1FieldOf('members.3')).toBe('member_ids');
  });
});
