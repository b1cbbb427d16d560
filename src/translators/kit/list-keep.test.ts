import { describe, expect, it } from 'vitest';
import { webinarList, webinarListRegistration } from '../webinars/lists.js';
import { keeps } from './list-keep.js';

const NOW = Date.parse('2030-06-01T00:00:00Z');
const LATER = '2030-07-01T10:00:00Z';
const EARLIER = '2030-05-01T10:00:00Z';

describe('a list endpoint keeps the items its rule keeps', () => {
  it('/webinar/list keeps webinars without registration, approval_type 2 or none', () => {
    const rule = webinarList.listKeep!;
    expect(keeps(rule, { settings: { approval_type: 2 } }, NOW)).toBe(true);
    expect(keeps(rule, { settings: {} }, NOW)).toBe(true);
    expect(keeps(rule, {}, NOW)).toBe(true);
    expect(keeps(rule, { settings: { approval_type: 0 } }, NOW)).toBe(false);
    expect(keeps(rule, { settings: { approval_type: 1 } }, NOW)).toBe(false);
  });

  it('/webinar/list/registration keeps upcoming webinars that take registration', () => {
    const rule = webinarListRegistration.listKeep!;
    const registered = { approval_type: 0 };
    expect(keeps(rule, { type: 5, start_time: LATER, settings: registered }, NOW)).toBe(true);
    expect(keeps(rule, { type: 5, start_time: EARLIER, settings: registered }, NOW)).toBe(false);
    expect(keeps(rule, { type: 5, settings: registered }, NOW)).toBe(false);
    expect(keeps(rule, { type: 5, start_time: LATER, settings: { approval_type: 2 } }, NOW)).toBe(false);
    expect(keeps(rule, { type: 6, settings: registered }, NOW)).toBe(true);
    const occurrence = (status: string, start_time: string) => ({ status, start_time });
    expect(keeps(rule, { type: 9, settings: registered, occurrences: [occurrence('available', LATER)] }, NOW)).toBe(true);
    expect(keeps(rule, { type: 9, settings: registered, occurrences: [occurrence('deleted', LATER)] }, NOW)).toBe(false);
    expect(keeps(rule, { type: 9, settings: registered, occurrences: [occurrence('available', EARLIER)] }, NOW)).toBe(false);
    // A series' own start_time does not make it upcoming: only its occurrences do.
    expect(keeps(rule, { type: 9, start_time: LATER, settings: registered, occurrences: [] }, NOW)).toBe(false);
  });
});
