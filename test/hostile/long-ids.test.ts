import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ENDPOINTS } from '../../src/translators/endpoints.js';
import { MAX_ID_CHARS, MAX_TOKEN_CHARS } from '../../src/v1/param-types.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

/**
 * A 20,000-character id is a parameter error (300 naming the field), answered before any v2 call:
 * it used to reach v2, whose answer came back as 503. Every id-like parameter of every endpoint
 * has its bound from its param type; an id at the bound still reaches v2.
 */
const LONG = 'x'.repeat(20_000);
/** v1's names for ids and lists of them. */
const ID_LIKE = /^(id|uuid|zpk|meeting_number|.+_id|.+_ids)$/;

describe('every id-like parameter of every endpoint', () => {
  const cases = ALL_ENDPOINTS.flatMap((endpoint) => {
    const shape = (endpoint.params as unknown as z.ZodObject).shape as Record<string, z.ZodType>;
    return Object.keys(shape)
      .filter((name) => ID_LIKE.test(name))
      .map((name) => ({ path: endpoint.path, name, type: shape[name]! }));
  });

  it('are many (the check below is not vacuous)', () => {
    expect(cases.length).toBeGreaterThan(90);
  });

  it('refuse a 20,000-character value, and one among a list of values', () => {
    for (const { path, name, type } of cases) {
      for (const value of [LONG, `a,${LONG},b`, ['a', LONG]]) {
        const issues = type.safeParse(value).error?.issues ?? [];
        expect(issues.length, `${path} ${name}`).toBeGreaterThan(0);
      }
    }
  });
});

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

describe('over the wire', () => {
  it('a 20,000-character id is refused naming the field, with no v2 call', async () => {
    for (const [path, params, field, max] of [
      ['/meeting/get', { id: LONG, host_id: 'h' }, 'id', MAX_ID_CHARS],
      ['/user/get', { id: LONG }, 'id', MAX_ID_CHARS],
      ['/meeting/list', { host_id: LONG }, 'host_id', MAX_ID_CHARS],
      ['/recording/get', { meeting_id: LONG }, 'meeting_id', MAX_ID_CHARS],
      ['/user/checkzpk', { zpk: LONG }, 'zpk', MAX_TOKEN_CHARS],
    ] as const) {
      const answer = await gw.v1Raw(path, params);
      expect(answer.body, path).toEqual({
        error: { code: 300, message: `Invalid parameter: ${field}. Must be at most ${max} characters.` },
      });
      expect(answer.headers.get('x-v2-calls'), path).toBe('0');
    }
  });

  it('a list holding one is refused naming the list, with no v2 call', async () => {
    const answer = await gw.v1Raw('/group/member/add', { id: 'g', member_ids: `u1,${LONG}` });
    expect(answer.body).toEqual({
      error: { code: 300, message: `Invalid parameter: member_ids. Each value must be at most ${MAX_ID_CHARS} characters.` },
    });
    expect(answer.headers.get('x-v2-calls')).toBe('0');
  });

  it('an id at the bound still reaches v2, which finds nothing', async () => {
    const answer = await gw.v1Raw('/user/get', { id: 'x'.repeat(MAX_ID_CHARS) });
    expect(answer.body.error.code).toBe(1001);
    expect(Number(answer.headers.get('x-v2-calls'))).toBeGreaterThan(0);
  });
});
