import { describe, expect, it } from 'vitest';
import { newRequestId } from './request-id.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newRequestId', () => {
  it('writes random version-4 UUIDs as randomUUID does, none twice, across refills of its pool', () => {
    const ids = Array.from({ length: 5_000 }, () => newRequestId());
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(crypto.randomUUID()).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('takes every digit at every random place: the bytes are random, not a counter or a pattern', () => {
    const ids = Array.from({ length: 2_000 }, () => newRequestId());
    for (let place = 0; place < 36; place++) {
      if ([8, 13, 14, 18, 23].includes(place)) continue; // the dashes, and the version digit
      const seen = new Set(ids.map((id) => id[place]));
      expect(seen.size, `place ${place}`).toBe(place === 19 ? 4 : 16);
    }
  });
});
