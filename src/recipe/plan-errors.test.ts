import { describe, expect, it } from 'vitest';
import { FAILURES } from '../../mappings/errors.js';
import { ERROR_TEXTS } from '../../mappings/error-texts.js';
import { ALL_ENDPOINTS } from '../translators/endpoints.js';
import { canonicalPath } from '../translators/kit/registry.js';
import { TODAY_V2 } from '../v2-contract/v2-today.js';
import { ANY_STEP_ROUTE, plannedErrorOf, plannedErrors } from './plan-errors.js';

/**
 * Each endpoint's plan names the v1 errors it can answer and the v2 errors behind each, read from
 * the failure table, the error texts and today's documented codes: every endpoint's list is held to
 * the expected text beside this test (update it with `npx vitest run src/recipe -u` when a table
 * changes on purpose), every documented code of every route an endpoint calls is behind one of its
 * errors, and one row changed in the failure table changes the plans.
 */

const byPath = (path: string) => ALL_ENDPOINTS.find((e) => e.path === path)!;

describe("an endpoint's v1 errors and the v2 errors behind each", () => {
  it('of every endpoint are the expected ones', async () => {
    const text = ALL_ENDPOINTS.map((endpoint) =>
      [
        `/v1${canonicalPath(endpoint.path)}`,
        ...plannedErrors(endpoint).map(
          (e) =>
            `  ${e.code} ${e.kind} "${e.message}" ← ${e.behind.map((b) => `${b.status}${b.code === undefined ? '' : ` ${b.code}`} ${b.route}`).join('; ')}`,
        ),
      ].join('\n'),
    ).join('\n\n');
    await expect(`${text}\n`).toMatchFileSnapshot('./declared-errors.txt');
  });

  it('cover every code the documents list for every route each endpoint calls, and every v2 failure any step meets', () => {
    for (const endpoint of ALL_ENDPOINTS) {
      const errors = plannedErrors(endpoint);
      for (const route of endpoint.v2Calls)
        for (const [status, codes] of Object.entries(TODAY_V2[route.name]?.errors ?? {}))
          for (const code of codes)
            expect(
              plannedErrorOf(errors, route.name, Number(status), code),
              `${endpoint.path} ${status} ${code} ${route.name}`,
            ).toBeDefined();
      if (endpoint.v2Calls.length === 0) continue;
      for (const status of [401, 403, 429, 500, 502, 0])
        expect(plannedErrorOf(errors, ANY_STEP_ROUTE, status, undefined), `${endpoint.path} ${status}`).toBeDefined();
    }
  });

  it('answer a documented v2 code as the failure table says: 3001 stays 3001 in v1 words, a 429 is v1 403', () => {
    const errors = plannedErrors(byPath('/meeting/get'));
    expect(plannedErrorOf(errors, 'GET /meetings/{meetingId}', 404, 3001)).toMatchObject({ code: 3001, kind: 'v2-coded' });
    expect(plannedErrorOf(errors, 'GET /meetings/{meetingId}', 404, 3001)!.message).toContain(ERROR_TEXTS['meeting-not-exist'].text);
    expect(plannedErrorOf(errors, 'GET /meetings/{meetingId}', 429, undefined)).toMatchObject({ code: 403, kind: 'v2-rate-limited' });
  });

  it('change when one row of the failure table changes', () => {
    const endpoint = byPath('/meeting/get');
    const changed = { failures: { ...FAILURES, 'v2-rate-limited': { ...FAILURES['v2-rate-limited'], v1Code: 429 } }, texts: ERROR_TEXTS };
    expect(plannedErrorOf(plannedErrors(endpoint), ANY_STEP_ROUTE, 429, undefined)?.code).toBe(403);
    expect(plannedErrorOf(plannedErrors(endpoint, changed), ANY_STEP_ROUTE, 429, undefined)?.code).toBe(429);
  });
});
