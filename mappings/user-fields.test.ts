import { describe, expect, it } from 'vitest';
import { getPath, toV1, toV2 } from '../src/v1/field-map.js';
import { v1FieldNamer } from '../src/v1/field-naming.js';
import { USER_FIELDS, USER_MEMBERSHIPS, USER_STATUS } from './user-fields.js';

/** Every row: the v2 path, a v1 form text, the parsed v1 value, and the v2 value it becomes. */
const EXPECTED: Record<string, { v2: string; text?: string; v1: unknown; v2Value: unknown }> = {
  first_name: { v2: 'first_name', text: 'Zoomie', v1: 'Zoomie', v2Value: 'Zoomie' },
  last_name: { v2: 'last_name', text: 'Userton', v1: 'Userton', v2Value: 'Userton' },
  type: { v2: 'type', text: '2', v1: 2, v2Value: 2 },
  pmi: { v2: 'pmi', text: '2035134243', v1: 2035134243, v2Value: 2035134243 },
  timezone: { v2: 'timezone', text: 'America/Los_Angeles', v1: 'America/Los_Angeles', v2Value: 'America/Los_Angeles' },
  dept: { v2: 'dept', text: 'Engineer', v1: 'Engineer', v2Value: 'Engineer' },
  vanity_name: { v2: 'vanity_name', text: 'zoomie', v1: 'zoomie', v2Value: 'zoomie' },
  host_key: { v2: 'host_key', text: '123456', v1: '123456', v2Value: '123456' },
  cms_user_id: { v2: 'cms_user_id', text: 'cms-1', v1: 'cms-1', v2Value: 'cms-1' },
  enable_use_pmi: { v2: 'use_pmi', text: 'true', v1: true, v2Value: true },
  id: { v2: 'id', v1: 'abc', v2Value: 'abc' },
  email: { v2: 'email', v1: 'a@b.c', v2Value: 'a@b.c' },
  account_id: { v2: 'account_id', v1: 'acc', v2Value: 'acc' },
  created_at: { v2: 'created_at', v1: '2012-11-25T12:00:00Z', v2Value: '2012-11-25T12:00:00Z' },
  pic_url: { v2: 'pic_url', v1: 'https://x/p.jpg', v2Value: 'https://x/p.jpg' },
  verified: { v2: 'verified', v1: 1, v2Value: 1 },
  vanity_url: { v2: 'vanity_url', v1: 'https://x/my/z', v2Value: 'https://x/my/z' },
  status: { v2: 'status', v1: 1, v2Value: 'inactive' },
  lastClientVersion: { v2: 'last_client_version', v1: '3.5', v2Value: '3.5' },
  lastLoginTime: { v2: 'last_login_time', v1: '', v2Value: '' },
};

describe('USER_FIELDS: every row', () => {
  it('has exactly the expected rows', () => {
    expect(USER_FIELDS.map((row) => row.v1).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const row of USER_FIELDS) {
    const expected = EXPECTED[row.v1]!;
    it(`${row.v1} ↔ ${expected.v2} (${row.direction ?? 'both'})`, () => {
      expect(row.v2).toBe(expected.v2);
      if (row.direction !== 'out') {
        expect(row.type.parse(expected.text)).toEqual(expected.v1);
        const v2 = toV2([row], { [row.v1]: expected.v1 });
        expect(getPath(v2, row.v2)).toEqual(expected.v2Value);
        expect(v1FieldNamer({ tables: [USER_FIELDS] })(row.v2)).toBe(row.v1);
      }
      const back = toV1([row], { [row.v2]: expected.v2Value });
      if (row.direction === 'in') expect(back).toEqual({});
      else expect(back).toEqual({ [row.v1]: expected.v1 });
    });
  }

  it('refuses malformed values', () => {
    const type = (name: string) => USER_FIELDS.find((row) => row.v1 === name)!.type!;
    expect(type('pmi').safeParse('123').success).toBe(false);
    expect(type('pmi').safeParse('0123456789').success).toBe(false);
    expect(type('host_key').safeParse('12345a').success).toBe(false);
    expect(type('type').safeParse('4').success).toBe(false);
    expect(type('first_name').safeParse('x'.repeat(65)).success).toBe(false);
  });

  it('status: 0 active, 1 inactive, 2 pending, both ways', () => {
    for (const [v1, v2] of [
      [0, 'active'],
      [1, 'inactive'],
      [2, 'pending'],
    ] as const) {
      expect(USER_STATUS.toV1(v2)).toBe(v1);
      expect(USER_STATUS.toV2(v1)).toBe(v2);
    }
  });
});

describe('USER_MEMBERSHIPS', () => {
  it('group_id and imgroup_id write to the v2 members collections, encoded', () => {
    const [group, imGroup] = USER_MEMBERSHIPS;
    expect(group!.v1).toBe('group_id');
    expect(group!.addMembers.at('g/1').path).toBe('/groups/g%2F1/members');
    expect(group!.removeMember.at('g1', 'u1').path).toBe('/groups/g1/members/u1');
    expect(imGroup!.v1).toBe('imgroup_id');
    expect(imGroup!.addMembers.at('i1').path).toBe('/im/groups/i1/members');
    expect(imGroup!.removeMember.at('i1', 'u1').path).toBe('/im/groups/i1/members/u1');
  });
});
