import { describe, expect, it } from 'vitest';
import { getPath, NO_V2_FIELD, setPath, toV1, toV2, withV1Defaults, type FieldTable } from '../src/v1/field-map.js';
import {
  LOSSY_NO_OF_EMPLOYEES,
  NO_OF_EMPLOYEES_TO_V2,
  PANELIST,
  REGISTRANT_FIELDS,
  REGISTRANT_LIST_QUERY,
  REGISTRANT_LIST_USER,
  REGISTRATION_ATTENDEE,
  V1_NO_OF_EMPLOYEES,
  noOfEmployeesCodec,
} from './registration.js';

/** A v1 form text for every input row, and the v2 value it must become. */
const INPUT_SAMPLES: Record<string, { form: string; v2: unknown }> = {
  email: { form: 'ada@example.com', v2: 'ada@example.com' },
  first_name: { form: 'Ada', v2: 'Ada' },
  last_name: { form: 'Lovelace', v2: 'Lovelace' },
  address: { form: '1 Analytical Way', v2: '1 Analytical Way' },
  city: { form: 'London', v2: 'London' },
  country: { form: 'GB', v2: 'GB' },
  zip: { form: 'N1 9GU', v2: 'N1 9GU' },
  state: { form: 'Greater London', v2: 'Greater London' },
  phone: { form: '+44 20 0000 0000', v2: '+44 20 0000 0000' },
  industry: { form: 'Computing', v2: 'Computing' },
  org: { form: 'Engines Ltd', v2: 'Engines Ltd' },
  job_title: { form: 'Programmer', v2: 'Programmer' },
  purchasing_time_frame: { form: '4-6 months', v2: '4-6 months' },
  role_in_purchase_process: { form: 'Evaluator/Recommender', v2: 'Evaluator/Recommender' },
  no_of_employees: { form: '501-1,000', v2: '500-1,000' },
  comments: { form: 'Looking forward', v2: 'Looking forward' },
  custom_questions: {
    form: '[{"title":"Favourite number","value":"42"},{"title":"Newsletter","value":true}]',
    v2: [
      { title: 'Favourite number', value: '42' },
      { title: 'Newsletter', value: 'true' },
    ],
  },
  // No v2 home: parsed, then left out of the v2 body.
  language: { form: 'zh-CN', v2: undefined },
};

describe('registration table (v1 register form ↔ v2 registrant)', () => {
  for (const row of REGISTRANT_FIELDS) {
    it(`${row.v1} ↔ ${row.v2}`, () => {
      const sample = INPUT_SAMPLES[row.v1];
      expect(sample, `a sample for ${row.v1}`).toBeDefined();
      const v1Value = row.type!.parse(sample!.form);
      const v2 = toV2([row], { [row.v1]: v1Value });
      if (row.v2 === NO_V2_FIELD) {
        expect(v2).toEqual({});
        return;
      }
      expect(getPath(v2, row.v2)).toEqual(sample!.v2);
      expect(toV1([row], v2)).toEqual({ [row.v1]: v1Value });
    });
  }

  it('every v1 enumeration value of the three enumerated fields is accepted, and others refused', () => {
    for (const field of ['purchasing_time_frame', 'role_in_purchase_process', 'no_of_employees']) {
      const row = REGISTRANT_FIELDS.find((r) => r.v1 === field)!;
      expect(row.type!.safeParse('Sometime').success).toBe(false);
    }
    const employees = REGISTRANT_FIELDS.find((r) => r.v1 === 'no_of_employees')!;
    for (const value of V1_NO_OF_EMPLOYEES) expect(employees.type!.parse(value)).toBe(value);
    // v2's own spellings are not v1 values.
    expect(employees.type!.safeParse('101-500').success).toBe(false);
  });

  it('custom_questions must be a JSON array of title/value objects', () => {
    const row = REGISTRANT_FIELDS.find((r) => r.v1 === 'custom_questions')!;
    expect(row.type!.safeParse('{not json').success).toBe(false);
    expect(row.type!.safeParse('{"title":"a","value":"b"}').success).toBe(false);
    expect(row.type!.safeParse('[{"value":"b"}]').success).toBe(false);
    expect(row.type!.parse('[]')).toEqual([]);
  });
});

describe('no_of_employees: v1 and v2 brackets', () => {
  it('maps every v1 bracket to a v2 bracket, and reads each back to itself except the lossy one', () => {
    for (const value of V1_NO_OF_EMPLOYEES) {
      const v2 = noOfEmployeesCodec.toV2(value);
      expect(v2).toBe(NO_OF_EMPLOYEES_TO_V2[value]);
      const back = noOfEmployeesCodec.toV1(v2);
      if (LOSSY_NO_OF_EMPLOYEES.includes(value)) expect(back).not.toBe(value);
      else expect(back).toBe(value);
    }
  });

  it('v1 101-250 and 251-500 are both v2 101-500, read back as 101-250; 501-1,000 ↔ 500-1,000', () => {
    expect(noOfEmployeesCodec.toV2('101-250')).toBe('101-500');
    expect(noOfEmployeesCodec.toV2('251-500')).toBe('101-500');
    expect(noOfEmployeesCodec.toV1('101-500')).toBe('101-250');
    expect(noOfEmployeesCodec.toV2('501-1,000')).toBe('500-1,000');
    expect(noOfEmployeesCodec.toV1('500-1,000')).toBe('501-1,000');
  });

  it('reads every v2 bracket back as a v1 bracket', () => {
    for (const v2 of ['1-20', '21-50', '51-100', '101-500', '500-1,000', '1,001-5,000', '5,001-10,000', 'More than 10,000']) {
      expect(V1_NO_OF_EMPLOYEES).toContain(noOfEmployeesCodec.toV1(v2));
    }
    expect(() => noOfEmployeesCodec.toV1('2-3')).toThrow();
  });
});

describe('dropped registration fields', () => {
  it('language: every v1 value accepted, others refused, nothing sent to v2', () => {
    const language = REGISTRANT_FIELDS.find((f) => f.v1 === 'language')!;
    expect(language.direction).toBe('in');
    for (const value of ['en-US', 'en', 'zh-CN', 'zh', 'en-ES', 'es', 'fr-FR', 'fr']) expect(language.type!.parse(value)).toBe(value);
    expect(language.type!.safeParse('de').success).toBe(false);
    expect(toV2(REGISTRANT_FIELDS, { language: 'fr' })).toEqual({});
  });
});

describe('registrant list query (v1 type ↔ v2 status)', () => {
  const row = REGISTRANT_LIST_QUERY[0];
  it.each([
    ['0', 'pending'],
    ['1', 'approved'],
  ])('type %s ↔ status %s', (form, status) => {
    const v1Value = row.type.parse(form);
    const v2 = toV2(REGISTRANT_LIST_QUERY, { type: v1Value });
    expect(getPath(v2, 'status')).toBe(status);
    expect(toV1(REGISTRANT_LIST_QUERY, v2)).toEqual({ type: v1Value });
  });

  it('defaults to 0 (pending), and refuses other types', () => {
    expect(toV2(REGISTRANT_LIST_QUERY, withV1Defaults(REGISTRANT_LIST_QUERY, {}))).toEqual({ status: 'pending' });
    expect(row.type.safeParse('2').success).toBe(false);
  });
});

/** Output-only tables: each v1 field reads its v2 field, and nothing goes the other way. */
const OUTPUT_SAMPLES: Record<string, unknown> = {
  id: 'rg_1',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  create_time: '2030-01-02T03:04:05Z',
  status: 'approved',
  join_url: 'https://example.com/w/1?tk=x',
  name: 'Ada Lovelace',
};

function outputRowsRead(name: string, table: FieldTable) {
  describe(`${name} (v2 → v1)`, () => {
    for (const row of table) {
      it(`${row.v1} ← ${row.v2}`, () => {
        const value = OUTPUT_SAMPLES[row.v2];
        expect(value, `a sample for ${row.v2}`).toBeDefined();
        const v2: Record<string, unknown> = {};
        setPath(v2, row.v2, value);
        expect(toV1([row], v2)).toEqual({ [row.v1]: value });
        // Output only: a v1 value of this name is never sent to v2.
        expect(toV2([row], { [row.v1]: value })).toEqual({});
      });
    }
  });
}

outputRowsRead('registrants list user', REGISTRANT_LIST_USER);
outputRowsRead('registration attendee', REGISTRATION_ATTENDEE);
outputRowsRead('panelist', PANELIST);
