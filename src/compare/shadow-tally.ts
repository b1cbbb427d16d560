import { diffAnswers } from './diff.js';
import { builtInNoise, noiseReason } from './noise.js';

/**
 * Shadow mode's mismatch report: real (not noise) differences between the primary's answer and
 * v1gate's, counted per endpoint × field × kind with a few examples each. Rows are capped so a
 * primary with ever-new keys cannot grow memory; past the cap a call still counts as mismatched.
 */
export interface ShadowMismatch {
  endpoint: string;
  field: string;
  kind: string;
  count: number;
  why: string;
  examples: { primary: unknown; v1gate: unknown }[];
}

/** Endpoints × fields kept; past it, new fields are counted only in `mismatchedCalls`. */
const MAX_MISMATCH_ROWS = 2_000;

export function mismatchTally(why: (path: string, field: string) => string, examplesPerRow: number) {
  const rules = builtInNoise();
  const rows = new Map<string, ShadowMismatch>();
  return {
    /** Records the real differences of one compared call; true when there was at least one. */
    add(endpoint: string, primary: unknown, candidate: unknown): boolean {
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
        if (row.examples.length < examplesPerRow) row.examples.push({ primary: difference.a, v1gate: difference.b });
      }
      return real;
    },
    rows: (): ShadowMismatch[] => [...rows.values()].sort((a, b) => b.count - a.count),
  };
}
