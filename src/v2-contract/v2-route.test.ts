import { describe, expect, it } from 'vitest';
import { DotSegmentValue } from './v2-path.js';
import { templatePattern, v2Route } from './v2-route.js';

describe('v2Route', () => {
  const member = v2Route('DELETE', '/groups/{groupId}/members/{memberId}');

  it('names itself as the v2 spec writes it, and reads only when it is a GET', () => {
    expect(member.name).toBe('DELETE /groups/{groupId}/members/{memberId}');
    expect(member.template).toBe('/groups/{groupId}/members/{memberId}');
    expect(member.reads).toBe(false);
    expect(v2Route('GET', '/users/{userId}').reads).toBe(true);
    expect(v2Route('POST', '/users').reads).toBe(false);
  });

  it('fills its values in order, each encoded as one path segment', () => {
    const target = member.at('g/1', 'user@example.com');
    expect(target.path).toBe('/groups/g%2F1/members/user%40example.com');
    expect(target.route).toBe(member);
    expect(v2Route('GET', '/users/{userId}/token').at(42).path).toBe('/users/42/token');
    expect(v2Route('GET', '/metrics/im').at().path).toBe('/metrics/im');
    // `?` and `#` in a value stay in the path, never start a query.
    expect(v2Route('GET', '/users/{userId}').at('a?b#c').path).toBe('/users/a%3Fb%23c');
  });

  it('refuses a value that would be a dot segment', () => {
    expect(() => member.at('g1', '..')).toThrow(DotSegmentValue);
    expect(() => member.at('.', 'u1')).toThrow(DotSegmentValue);
    expect(member.at('g1', '...').path).toBe('/groups/g1/members/...');
  });

  it('takes exactly one value per param: the type says so, and so does a call the compiler did not see', () => {
    const loose = member as unknown as { at(...values: string[]): unknown };
    expect(() => loose.at('g1')).toThrow(TypeError);
    expect(() => loose.at('g1', 'u1', 'x')).toThrow(TypeError);
    // @ts-expect-error -- a value is missing
    expect(() => member.at('g1')).toThrow(TypeError);
  });

  it('is frozen: one route object is shared by every call and declaration', () => {
    expect(Object.isFrozen(member)).toBe(true);
  });
});

describe('templatePattern', () => {
  it('matches one segment per param, the rest literally, and captures when asked', () => {
    const members = templatePattern('/groups/{groupId}/members/{memberId}');
    expect(members.test('/groups/g1/members/u%2F1')).toBe(true);
    expect(members.test('/groups/g1/members/u1/x')).toBe(false);
    expect(members.test('/groups//members/u1')).toBe(false);
    expect(templatePattern('/groups/{groupId}/members/{memberId}', { capture: true }).exec('/groups/g1/members/u1')?.slice(1)).toEqual([
      'g1',
      'u1',
    ]);
    // A dot in a template is a dot, not any character.
    expect(templatePattern('/a.b/{id}').test('/aXb/1')).toBe(false);
  });
});
