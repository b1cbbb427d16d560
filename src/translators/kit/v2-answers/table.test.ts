import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ALL_V2_ROUTES, V2 } from '../../../v2-contract/v2-routes.js';
import { UpstreamUnavailable } from '../../../upstream/errors.js';
import { answerWith, looseFields, NO_CONTENT } from '../answer-shape.js';
import { checkedV2Answer, V2_ANSWERS } from './table.js';

/** The answer table at run time: what the client checks a call's answer against is its route's row. */
describe('checkedV2Answer', () => {
  it('checks an answer against its route’s row and hands it on as it came', () => {
    const user = { id: 'u1', email: 'u1@example.com', pmi: 123 };
    expect(checkedV2Answer(V2.users.get, user)).toBe(user);
    expect(() => checkedV2Answer(V2.users.get, { email: 'u1@example.com' })).toThrow(
      'The v2 service answered GET /users/{userId} without a string `id`.',
    );
  });

  it('refuses to read an answer of a route that answers nothing, rather than pass it unchecked', () => {
    expect(() => checkedV2Answer(V2.users.update, {})).toThrow(TypeError);
  });

  it('has a row for every route of V2, a schema exactly for the GETs and POSTs (what the compiler holds, as data)', () => {
    expect(Object.keys(V2_ANSWERS).sort()).toEqual(ALL_V2_ROUTES.map((route) => route.name).sort());
    for (const route of ALL_V2_ROUTES)
      expect(V2_ANSWERS[route.name as keyof typeof V2_ANSWERS] === NO_CONTENT, route.name).toBe(!['GET', 'POST'].includes(route.method));
  });
});

describe('answerWith', () => {
  const STATUS = looseFields({ status: z.string() });

  it('answers the same object, typed with the fields it checked', () => {
    const user = checkedV2Answer(V2.users.get, { id: 'u1', email: 'u1@example.com', status: 'active' });
    const checked = answerWith(user, STATUS, V2.users.get);
    expect(checked).toBe(user);
    expect(checked.status).toBe('active');
  });

  it('fails as the route check does when the field is missing', () => {
    const user = checkedV2Answer(V2.users.get, { id: 'u1', email: 'u1@example.com' });
    let error: unknown;
    try {
      answerWith(user, STATUS, V2.users.get);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(UpstreamUnavailable);
    expect((error as Error).message).toBe('The v2 service answered GET /users/{userId} without a string `status`.');
  });
});
