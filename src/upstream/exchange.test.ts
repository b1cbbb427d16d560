import fc from 'fast-check';
import { util as undiciUtil } from 'undici';
import { describe, expect, it } from 'vitest';
import { headerIn } from './exchange.js';

/** The names the client reads of an answer, and others around them of the same lengths or spellings. */
const READ = ['x-ratelimit-remaining', 'x-ratelimit-type', 'x-zm-trackingid', 'retry-after'];
const NAMES = [...READ, 'x-ratelimit-limit', 'content-type', 'retry-afte', 'retry-after-', 'x-zm-trackingid2', 'date', '__proto__'];
const TOKEN = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".split('');

/** A header name as a server may spell it: one of the names above in any letter case, or any other token. */
const name = fc.oneof(
  fc
    .tuple(fc.constantFrom(...NAMES), fc.array(fc.boolean(), { minLength: 32, maxLength: 32 }))
    .map(([n, upper]) => [...n].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('')),
  fc.array(fc.constantFrom(...TOKEN), { minLength: 1, maxLength: 24 }).map((chars) => chars.join('')),
);
/** A value as llhttp hands it on: any bytes but CR and LF, read as latin1. */
const value = fc.uint8Array({ maxLength: 40 }).map((bytes) => Buffer.from(bytes.filter((b) => b !== 13 && b !== 10)));

describe('headerIn', () => {
  it("answers each header as undici's parseHeaders does: any letter case, repeats as an array in order, absent as undefined", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(name, value), { maxLength: 16 }), (pairs) => {
        const raw = pairs.flatMap(([n, v]) => [Buffer.from(n, 'latin1'), v]);
        const parsed = undiciUtil.parseHeaders(raw) as Record<string, string | string[] | undefined>;
        for (const wanted of NAMES) expect(headerIn(raw, wanted)).toEqual(Object.hasOwn(parsed, wanted) ? parsed[wanted] : undefined);
      }),
      { numRuns: 2_000 },
    );
  });
});
