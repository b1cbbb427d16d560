import type { CompareReport, EndpointReport } from './compare.js';
import { diffAnswers, type DifferenceKind } from './diff.js';
import { builtInNoise, noiseReason } from './noise.js';
import { exampleValue } from './secrets.js';
import type { Redactor } from '../shared/secrets.js';
import type { Answer } from './answers.js';

/**
 * Shadow mode's mismatch report: real (not noise) differences between the primary's answer and
 * v1gate's, counted per endpoint × field × kind with a few examples each. Rows are capped so a
 * primary with ever-new keys cannot grow memory; past the cap a call still counts as mismatched.
 * The same tally reads as a `compare` report (`asReport`), so the shadow's page is compare's.
 */
export interface ShadowMismatch {
  endpoint: string;
  field: string;
  kind: DifferenceKind;
  count: number;
  why: string;
  examples: { primary: unknown; v1gate: unknown }[];
}

/** Endpoints × fields kept; past it, new fields are counted only in `mismatchedCalls`. */
const MAX_MISMATCH_ROWS = 2_000;

export function mismatchTally(why: (path: string, field: string) => string, examplesPerRow: number) {
  const rules = builtInNoise();
  const rows = new Map<string, ShadowMismatch>();
  // Compared and mismatched calls per endpoint: read-only v1 endpoints only, so bounded by the registry.
  const endpoints = new Map<string, { calls: number; differing: number }>();
  const rowList = (): ShadowMismatch[] => [...rows.values()].sort((a, b) => b.count - a.count);
  return {
    /**
     * Records the real differences of one compared call; true when there was at least one. Its
     * examples are kept redacted by `redactor` (the call's own secrets): nothing secret is held.
     */
    add(endpoint: string, primary: Answer, candidate: Answer, redactor: Redactor): boolean {
      let real = false;
      for (const difference of diffAnswers(primary, candidate)) {
        if (noiseReason(difference, rules)) continue;
        real = true;
        const key = `${endpoint}\n${difference.field}\n${difference.kind}`;
        let row = rows.get(key);
        if (!row && rows.size < MAX_MISMATCH_ROWS) {
          row = { endpoint, field: difference.field, kind: difference.kind, count: 0, why: why(endpoint, difference.field), examples: [] };
          rows.set(key, row);
        }
        if (!row) continue;
        row.count++;
        if (row.examples.length < examplesPerRow) {
          const { field, a, b } = difference;
          row.examples.push(redactor.redact({ primary: exampleValue(field, a), v1gate: exampleValue(field, b) }));
        }
      }
      let counts = endpoints.get(endpoint);
      if (!counts) endpoints.set(endpoint, (counts = { calls: 0, differing: 0 }));
      counts.calls++;
      if (real) counts.differing++;
      return real;
    },
    rows: rowList,
    /** The tally as `npm run compare`'s report: A is the primary, B v1gate; `writes`: sampled writes, never compared. */
    asReport(primaryUrl: string, writes: number, limited: number): CompareReport {
      const reports = new Map<string, EndpointReport>();
      for (const [path, counts] of endpoints) reports.set(path, { path, ...counts, fields: [] });
      for (const row of rowList()) {
        reports.get(row.endpoint)?.fields.push({
          field: row.field,
          kind: row.kind,
          count: row.count,
          why: row.why,
          // The shadow keeps no params (they may carry personal data); the answers are the example.
          examples: row.examples.map((x) => ({ a: x.primary, b: x.v1gate, params: {} })),
        });
      }
      const list = [...reports.values()].sort((x, y) => y.differing - x.differing || x.path.localeCompare(y.path));
      return {
        a: primaryUrl,
        b: 'v1gate (shadow)',
        calls: list.reduce((n, e) => n + e.calls, 0),
        skipped_writes: writes,
        skipped_limited: limited,
        differing_calls: list.reduce((n, e) => n + e.differing, 0),
        endpoints: list,
      };
    },
  };
}
