import type { Redactor } from '../shared/secrets.js';
import type { Answer } from './answers.js';
import { diffAnswers, type DifferenceKind } from './diff.js';
import type { EndpointFacts } from './endpoint-facts.js';
import { builtInNoise, noiseReason } from './noise.js';
import { ReportTally, type CompareReport, type NotCompared } from './report.js';

/**
 * Shadow mode's tally: the same counts as a compare (report.ts), the primary as A and v1gate as
 * B, with the real differences also read as mismatch rows (for /metrics and the status page).
 * Rows are capped so a primary with ever-new keys cannot grow memory; past the cap a call still
 * counts as differing.
 */
export interface ShadowMismatch {
  endpoint: string;
  field: string;
  kind: DifferenceKind;
  count: number;
  why: string;
  examples: { primary: unknown; v1gate: unknown }[];
}

export class ShadowTally {
  private readonly tally: ReportTally;
  private readonly rules = builtInNoise();

  constructor(
    private readonly facts: Pick<EndpointFacts, 'source' | 'declaredCost' | 'serves'>,
    examples: number,
  ) {
    this.tally = new ReportTally({ source: facts.source, declaredCost: facts.declaredCost, examples });
  }

  /** A sampled call of `endpoint` that will not be compared, and why. */
  notCompared(endpoint: string, reason: NotCompared): void {
    this.tally.recorded(endpoint);
    this.tally.notCompared(endpoint, reason);
  }

  /**
   * One compared call: the first field that differs for real, or undefined when none does. Its
   * examples are kept redacted by `redactor` (the call's own secrets).
   */
  compared(endpoint: string, primary: Answer, candidate: Answer, redactor: Redactor, v2Calls?: number): string | undefined {
    this.tally.recorded(endpoint);
    this.tally.cost(endpoint, 'b', v2Calls);
    const differences = diffAnswers(primary, candidate).map((d) => ({ ...d, noise: noiseReason(d, this.rules) }));
    this.tally.compared(endpoint, differences, undefined, redactor);
    return differences.find((d) => !d.noise)?.field;
  }

  /** The real differences as mismatch rows, most frequent first. */
  mismatches(): ShadowMismatch[] {
    return this.tally
      .realRows()
      .map((row) => ({
        endpoint: row.endpoint,
        field: row.field,
        kind: row.kind,
        count: row.count,
        why: row.why,
        examples: row.examples.map((x) => ({ primary: x.a, v1gate: x.b })),
      }))
      .sort((a, b) => b.count - a.count);
  }

  report(primaryName: string): CompareReport {
    return this.tally.report({ a: primaryName, b: 'v1gate (shadow)' }, this.facts.serves);
  }
}
