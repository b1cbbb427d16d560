import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_TEXTS, errorTextTable, type ErrorText } from './error-texts.js';
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
});
