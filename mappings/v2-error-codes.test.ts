import { describe, expect, it } from 'vitest';
import { ALL_V2_ROUTES } from '../src/v2-contract/v2-routes.js';
import { TODAY_V2 } from '../src/v2-contract/v2-today.js';
import { V1_SHARED_CODES, V2_CODES_PASSED_THROUGH, V2_CODES_WITH_A_ROW } from './v2-error-codes.js';
import { FAILURES } from './errors.js';

/** Every v2 code today's documents list for a route v1gate calls, with the routes that list it. */
function listedCodes(): Map<number, string[]> {
  const codes = new Map<number, string[]>();
  for (const route of ALL_V2_ROUTES) {
    for (const [status, list] of Object.entries(TODAY_V2[route.name]?.errors ?? {}))
      for (const code of list) codes.set(code, [...(codes.get(code) ?? []), `${status} ${route.name}`]);
  }
  return codes;
}

describe("today's documented v2 error codes against the failure table", () => {
  const listed = listedCodes();
  const passed = V2_CODES_PASSED_THROUGH.flatMap((row) => row.codes);

  it('knows every code the documents list for a route v1gate calls: shared with v1, a row of its own, or passed through with a reason', () => {
    const unknown = [...listed.keys()].filter(
      (code) => !V1_SHARED_CODES.has(code) && !V2_CODES_WITH_A_ROW.has(code) && !passed.includes(code),
    );
    expect(unknown.map((code) => `${code}: ${listed.get(code)!.join(', ')}`)).toEqual([]);
  });

  it('names no code the documents do not list, and each code once', () => {
    expect(passed.filter((code) => !listed.has(code))).toEqual([]);
    expect([...V2_CODES_WITH_A_ROW.keys()].filter((code) => !listed.has(code))).toEqual([]);
    const all = [...V1_SHARED_CODES, ...V2_CODES_WITH_A_ROW.keys(), ...passed];
    expect(all.length).toBe(new Set(all).size);
  });

  it('passes the unlisted ones through as the failure table says a coded v2 error goes', () => {
    expect(FAILURES['v2-coded']).toMatchObject({ v1Code: 'keep', v1Message: 'keep' });
    for (const row of V2_CODES_PASSED_THROUGH) expect(row.why.length).toBeGreaterThan(40);
  });
});
