import { describe, expect, it } from 'vitest';
import { subscribeSchema } from '../src/sandbox/accounts/plan-schemas.js';
import { billingContactSchema } from '../src/sandbox/accounts/billing.js';
import { getPath, inputShape, toV1, toV2, type FieldRow } from '../src/v1/field-map.js';
import { bothWays } from '../test/support/codecs.js';
import { audioPlanCodec, BILLING_CONTACT_ROWS, PLAN_SET_ROWS } from './plans.js';

const plan = (type: string, hosts: number) => ({ type, hosts });

/** The plan set written out: v1 form text → v1 value → v2 value, and the v1 value read back. */
const EXPECTED: Record<string, { text: string; v1: unknown; v2Value: unknown; back?: unknown }> = {
  plan_base: { text: '{"type":"monthly","hosts":9}', v1: plan('monthly', 9), v2Value: plan('monthly', 9) },
  plan_vendor_rooms: { text: '{"type":"zroom_monthly","hosts":"2"}', v1: plan('zroom_monthly', 2), v2Value: plan('zroom_monthly', 2) },
  plan_room_connector: {
    text: '{"type":"roomconnector_yearly","hosts":1}',
    v1: plan('roomconnector_yearly', 1),
    v2Value: plan('roomconnector_yearly', 1),
  },
  plan_large_meeting: {
    text: '[{"type":"large100_monthly","hosts":1},{"type":"large200_monthly","hosts":2}]',
    v1: [plan('large100_monthly', 1), plan('large200_monthly', 2)],
    v2Value: [plan('large100_monthly', 1), plan('large200_monthly', 2)],
  },
  plan_webinar: {
    text: '{"type":"webinar100_monthly","hosts":1}',
    v1: [plan('webinar100_monthly', 1)],
    v2Value: [plan('webinar100_monthly', 1)],
  },
  plan_recording: { text: 'cmr_monthly_commitment_500', v1: 'cmr_monthly_commitment_500', v2Value: 'cmr_monthly_commitment_500' },
  plan_audio: {
    text: '{"type":"tollfree_monthly_commitment_100","tollfree_country":"AT","premium_country":"TW","callout":0,"ddi_numbers":66}',
    v1: { type: 'tollfree_monthly_commitment_100', tollfree_country: 'AT', premium_country: 'TW', callout: 0, ddi_numbers: 66 },
    v2Value: { type: 'tollfree_monthly_commitment_100', tollfree_countries: 'AT', premium_countries: 'TW', ddi_numbers: 66 },
  },
};

describe('PLAN_SET_ROWS: every row both ways', () => {
  it('has exactly the expected rows, named as v2 names them', () => {
    expect(PLAN_SET_ROWS.map((row) => row.v1)).toEqual(Object.keys(EXPECTED));
    for (const row of PLAN_SET_ROWS) expect(row.v2).toBe(row.v1);
    // Every v2 path is a field of v2's subscribe body.
    for (const row of PLAN_SET_ROWS) expect(Object.keys(subscribeSchema.shape)).toContain(row.v2);
  });

  for (const row of PLAN_SET_ROWS) {
    const expected = EXPECTED[row.v1]!;
    it(`${row.v1} ↔ ${row.v2}`, () => {
      const v1Value = row.type!.parse(expected.text);
      expect(v1Value).toEqual(expected.v1);
      const v2 = toV2([row], { [row.v1]: v1Value });
      expect(getPath(v2, row.v2)).toEqual(expected.v2Value);
      expect(toV1([row], v2)).toEqual({ [row.v1]: expected.back ?? expected.v1 });
    });
  }

  it('takes plan_zoom_rooms as plan_vendor_rooms', () => {
    const params = inputShape(PLAN_SET_ROWS);
    expect(Object.keys(params)).toContain('plan_zoom_rooms');
    expect(toV2(PLAN_SET_ROWS, { plan_zoom_rooms: plan('zroom_monthly', 1) })).toEqual({ plan_vendor_rooms: plan('zroom_monthly', 1) });
  });

  it('refuses bad JSON and plans without type or hosts, with a message for the 300', () => {
    const base = PLAN_SET_ROWS.find((row) => row.v1 === 'plan_base')!.type!;
    const problem = (text: string) => base.safeParse(text).error?.issues[0]?.message;
    expect(problem('{type')).toBe('Must be valid JSON.');
    expect(problem('{"type":"monthly"}')).toMatch(/hosts/);
    expect(problem('{"hosts":1}')).toMatch(/type/);
    expect(problem('{"type":"monthly","hosts":1,"seats":2}')).toMatch(/seats/);
  });
});

describe('audioPlanCodec', () => {
  it('renames the country lists, drops callout on the way in and derives it on the way out', () => {
    expect(audioPlanCodec.toV2({ type: 't', tollfree_country: 'AT', premium_country: 'TW', callout: 1, ddi_numbers: 3 })).toEqual({
      type: 't',
      tollfree_countries: 'AT',
      premium_countries: 'TW',
      ddi_numbers: 3,
    });
    expect(
      audioPlanCodec.toV1({ type: 't', tollfree_countries: 'AT', premium_countries: '', callout_countries: 'US,CA', ddi_numbers: 0 }),
    ).toEqual({
      type: 't',
      tollfree_country: 'AT',
      premium_country: '',
      callout: 1,
      ddi_numbers: 0,
    });
    expect(audioPlanCodec.toV1({ type: 't' }).callout).toBe(0);
  });
});

describe('BILLING_CONTACT_ROWS: every row both ways', () => {
  const v2Contact = {
    email: 'b@x.y',
    first_name: 'F',
    last_name: 'L',
    phone_number: '1',
    address: 'A',
    apt: 'P',
    city: 'C',
    state: 'S',
    zip: 'Z',
    country: 'US',
  };

  it("lists v1's contact fields in v1's answer order, each a field of v2's contact", () => {
    expect(BILLING_CONTACT_ROWS.map((row) => row.v1)).toEqual([
      'email',
      'first_name',
      'last_name',
      'phone_number',
      'address',
      'apt',
      'city',
      'state',
      'zip',
      'country',
    ]);
    for (const row of BILLING_CONTACT_ROWS) expect(Object.keys(billingContactSchema.shape)).toContain(row.v2);
  });

  for (const row of BILLING_CONTACT_ROWS as FieldRow[]) {
    it(`${row.v1} ↔ ${row.v2} (${row.direction ?? 'both'})`, () => {
      const value = v2Contact[row.v2 as keyof typeof v2Contact];
      expect(toV1([row], v2Contact)).toEqual({ [row.v1]: value });
      if (row.direction === 'out') {
        expect(row.type).toBeUndefined();
        expect(toV2([row], { [row.v1]: value })).toEqual({});
      } else {
        expect(toV2([row], { [row.v1]: row.type!.parse(value) })).toEqual({ [row.v2]: value });
        expect(bothWays(row.codec).toV1(value)).toBe(value);
      }
    });
  }
});
