import { describe, expect, it } from 'vitest';
import { getPath, NO_V2_FIELD, toV1, toV2, withV1Defaults, type FieldRow } from '../src/v1/field-map.js';
import { bothWays } from '../test/support/codecs.js';
import { GROUP_MEMBER_ROWS, GROUP_ROWS, IM_GROUP_LIST_ITEM_ROWS, IM_GROUP_ROWS } from './groups.js';

/** The tables written out: v1 field → v2 field, a v1 form text (input rows), its v1 value and its v2 value. */
const EXPECTED: Record<string, { v2: string; text?: string; v1: unknown; v2Value: unknown }> = {
  group_id: { v2: 'id', v1: 'g1', v2Value: 'g1' },
  name: { v2: 'name', text: 'Sales', v1: 'Sales', v2Value: 'Sales' },
  total_members: { v2: 'total_members', v1: 3, v2Value: 3 },
  type: { v2: 'type', text: 'restricted', v1: 'Restricted', v2Value: 'restricted' },
  option_search_by_domain: { v2: 'search_by_domain', text: 'true', v1: true, v2Value: true },
  option_search_by_account: { v2: 'search_by_account', text: '0', v1: false, v2Value: false },
  option_search_by_ma: { v2: 'search_by_ma_account', text: 'TRUE', v1: true, v2Value: true },
  option_search_by_ma_account: { v2: 'search_by_ma_account', v1: true, v2Value: true },
  last_modified_time: { v2: 'last_modified_time', v1: '2016-04-16T07:45:41Z', v2Value: '2016-04-16T07:45:41Z' },
  id: { v2: 'id', v1: 'u1', v2Value: 'u1' },
  email: { v2: 'email', v1: 'a@b.c', v2Value: 'a@b.c' },
  first_name: { v2: 'first_name', v1: 'Ada', v2Value: 'Ada' },
  last_name: { v2: 'last_name', v1: 'Lovelace', v2Value: 'Lovelace' },
  pic_url: { v2: NO_V2_FIELD, v1: undefined, v2Value: undefined },
};

const ROWS: FieldRow[] = [...new Set([...IM_GROUP_LIST_ITEM_ROWS, ...GROUP_MEMBER_ROWS])];

describe('group, IM group and member tables: every row both ways', () => {
  it('has exactly the expected rows', () => {
    expect(ROWS.map((row) => row.v1).sort()).toEqual(Object.keys(EXPECTED).sort());
    expect(IM_GROUP_ROWS.slice(0, GROUP_ROWS.length)).toEqual(GROUP_ROWS);
  });

  for (const row of ROWS) {
    const expected = EXPECTED[row.v1]!;
    it(`${row.v1} ↔ ${expected.v2} (${row.direction ?? 'both'})`, () => {
      expect(row.v2).toBe(expected.v2);
      const v2Object = {};
      if (row.direction !== 'out') {
        const v1Value = row.type!.parse(expected.text);
        expect(v1Value).toBe(expected.v1);
        Object.assign(v2Object, toV2([row], { [row.v1]: v1Value }));
        expect(getPath(v2Object, row.v2)).toBe(expected.v2Value);
      }
      if (row.v2 === NO_V2_FIELD) {
        // No v2 home: nothing to read; the translator answers its v1 placeholder.
        expect(toV1([row], { id: 'x' })).toEqual({});
      } else if (row.direction === 'in') {
        expect(bothWays(row.codec).toV1(expected.v2Value)).toBe(expected.v1);
      } else {
        expect(toV1([row], { [row.v2]: expected.v2Value })).toEqual({ [row.v1]: expected.v1 });
        expect(bothWays(row.codec).toV2(expected.v1)).toBe(expected.v2Value);
      }
    });
  }

  it('maps every IM group type both ways, any letter case in', () => {
    const type = IM_GROUP_ROWS.find((row) => row.v1 === 'type')!;
    for (const [v1Type, v2Type] of [
      ['Normal', 'normal'],
      ['Restricted', 'restricted'],
      ['Shared', 'shared'],
    ] as const) {
      expect(toV2([type], { type: type.type!.parse(v1Type.toUpperCase()) })).toEqual({ type: v2Type });
      expect(bothWays(type.codec).toV1(v2Type)).toBe(v1Type);
    }
    expect(type.type!.safeParse('Open').success).toBe(false);
  });

  it("an IM group create that names nothing gets v1's defaults", () => {
    expect(toV2(IM_GROUP_ROWS, withV1Defaults(IM_GROUP_ROWS, { name: 'x' }))).toEqual({
      name: 'x',
      type: 'normal',
      search_by_domain: false,
      search_by_account: false,
      search_by_ma_account: false,
    });
  });

  it('accepts the answer spelling option_search_by_ma_account on input', () => {
    expect(toV2(IM_GROUP_ROWS, { option_search_by_ma_account: true })).toEqual({ search_by_ma_account: true });
  });

  it('a v2 IM group reads back as the v1 output, without the type', () => {
    const v2 = {
      id: 'g',
      name: 'n',
      total_members: 2,
      type: 'shared',
      search_by_domain: true,
      search_by_account: false,
      search_by_ma_account: true,
    };
    expect(toV1(IM_GROUP_ROWS, v2)).toEqual({
      group_id: 'g',
      name: 'n',
      total_members: 2,
      option_search_by_domain: true,
      option_search_by_account: false,
      option_search_by_ma_account: true,
    });
  });
});
