import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_TEXTS, errorTextTable, inV1Words, type ErrorText } from './error-texts.js';
import { FAILURES, type FailureKind } from './errors.js';

const rows: [string, ErrorText][] = Object.entries(ERROR_TEXTS);

describe('the error-text table', () => {
  it('has a text for every failure kind, and the fixed text of each kind is its row, code and words', () => {
    const kinds = Object.keys(FAILURES) as FailureKind[];
    for (const kind of kinds) {
      const own = rows.filter(([, row]) => row.kinds.includes(kind));
      expect(own.length, `no error text names the failure kind ${kind}`).toBeGreaterThan(0);
      const failure = FAILURES[kind];
      if (failure.v1Message === 'keep') continue;
      expect(
        own.map(([, row]) => ({ code: row.code, text: row.text })),
        kind,
      ).toContainEqual({ code: failure.v1Code, text: failure.v1Message });
    }
    for (const [id, row] of rows) for (const kind of row.kinds) expect(kinds, id).toContain(kind);
  });

  it('gives every text a source or a stated reason', () => {
    for (const [id, row] of rows) {
      expect(row.source.trim().length, id).toBeGreaterThan(10);
      expect(row.where.trim().length, id).toBeGreaterThan(5);
    }
  });

  it('is the table docs/live-evidence.md shows, row for row', () => {
    const doc = readFileSync(new URL('../docs/live-evidence.md', import.meta.url), 'utf8');
    const section = doc.split('## The error texts clients match on')[1]!.split('\n## ')[0]!;
    const shown = section.split('\n').filter((line) => line.startsWith('|'));
    expect(shown.join('\n')).toBe(errorTextTable());
  });

  it("words today's v2 texts as the live v1 did, the value kept as v2 named it, and leaves any other text as it is", () => {
    expect(inV1Words(1001, 'User does not exist: a$&b@example.test.')).toBe('User not exist: a$&b@example.test');
    expect(inV1Words(3001, 'Meeting does not exist: 98399082887.')).toBe('Meeting 98399082887 is not found or has expired.');
    expect(inV1Words(3001, 'Webinar does not exist: 9.')).toBe('Webinar 9 not found or expired.');
    expect(inV1Words(4130, 'Group does not exist: g1.')).toBe('Group not exist: g1');
    // Another form, or the form under another code, is v2's own text.
    expect(inV1Words(1001, 'User not exist: x.')).toBe('User not exist: x.');
    expect(inV1Words(3001, 'Meeting ID is invalid or not end.')).toBe('Meeting ID is invalid or not end.');
    expect(inV1Words(300, 'User does not exist: x.')).toBe('User does not exist: x.');
  });
});
