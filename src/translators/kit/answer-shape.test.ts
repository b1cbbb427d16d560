import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UpstreamUnavailable } from '../../upstream/errors.js';
import { V2 } from '../../v2-contract/v2-routes.js';
import { NOT_READ, OBJECT_READ_BY_KEY, checkedAnswer, looseFields } from './answer-shape.js';

const USER = looseFields({ id: z.string(), email: z.string(), nick: z.string().optional() });
const PAGE = looseFields({ total_records: z.number(), meetings: z.array(looseFields({ id: z.union([z.number(), z.string()]) })) });

function failure(run: () => unknown): UpstreamUnavailable {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UpstreamUnavailable);
    return error as UpstreamUnavailable;
  }
  throw new Error('the check passed');
}

describe('checkedAnswer', () => {
  it('hands on the answer as it came, unknown keys kept, nested objects too', () => {
    const user = { id: 'u1', email: 'a@b.c', pmi: '123' };
    expect(checkedAnswer(USER, user, V2.users.get)).toBe(user);
    const page = { total_records: 1, next_page_token: '', meetings: [{ id: 7, topic: 'kept' }] };
    const checked = checkedAnswer(PAGE, page, V2.users.meetings);
    expect(checked).toBe(page);
    expect(checked.meetings[0]).toEqual({ id: 7, topic: 'kept' });
  });

  it('a field of the wrong type: a bad answer naming the route and the field, not the value', () => {
    const error = failure(() => checkedAnswer(USER, { id: 'secret-id-value', email: 4242 }, V2.users.get));
    expect(error.reason).toBe('bad-response');
    expect(error.mayHaveApplied).toBe(false);
    expect(error.message).toBe('The v2 service answered GET /users/{userId} without a string `email`.');
    expect(error.message).not.toContain('4242');
  });

  it('an empty object names its first missing field; an optional field may be absent', () => {
    expect(failure(() => checkedAnswer(USER, {}, V2.users.get)).message).toBe(
      'The v2 service answered GET /users/{userId} without a string `id`.',
    );
  });

  it('an array where an object is due, and a missing answer (an empty 2xx body)', () => {
    expect(failure(() => checkedAnswer(USER, [], V2.users.get)).message).toBe(
      'The v2 service answered GET /users/{userId} with something other than an object.',
    );
    expect(failure(() => checkedAnswer(USER, undefined, V2.users.get)).message).toBe(
      'The v2 service answered GET /users/{userId} with something other than an object.',
    );
  });

  it('names a nested field by its path, and a union of types by its members', () => {
    const answer = { total_records: 1, meetings: [{ id: 1 }, { id: true }] };
    expect(failure(() => checkedAnswer(PAGE, answer, V2.users.meetings)).message).toBe(
      'The v2 service answered GET /users/{userId}/meetings without a number or string `meetings[1].id`.',
    );
  });

  it('a write whose answer does not fit may have been applied', () => {
    const error = failure(() => checkedAnswer(PAGE, {}, V2.users.createMeeting));
    expect(error.mayHaveApplied).toBe(true);
    expect(error.message).toBe('The v2 service answered POST /users/{userId}/meetings without a number `total_records`.');
  });

  it('OBJECT_READ_BY_KEY checks an object and no deeper, and hands on the same object', () => {
    const SESSION = looseFields({ settings: OBJECT_READ_BY_KEY.optional() });
    const settings = { approval_type: 2, nested: { anything: [1] } };
    expect(checkedAnswer(SESSION, { settings }, V2.meetings.get).settings).toBe(settings);
    expect(failure(() => checkedAnswer(SESSION, { settings: ['x'] }, V2.meetings.get)).message).toBe(
      'The v2 service answered GET /meetings/{meetingId} without an object `settings`.',
    );
  });

  it('NOT_READ takes any answer', () => {
    for (const answer of [undefined, {}, [], 'text']) expect(checkedAnswer(NOT_READ, answer, V2.users.createMeeting)).toBe(answer);
  });
});
