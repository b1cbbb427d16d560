import { canonicalPath } from '../translators/kit/registry.js';
import type { RecordedCall } from './calls.js';
import type { Difference, DifferenceKind } from './diff.js';
import { describeSource, type FieldSource } from './field-sources.js';
import { exampleValue } from './secrets.js';
import type { Redactor } from '../shared/secrets.js';

/**
 * The evidence of a side-by-side comparison, one shape for `npm run compare` and shadow mode:
 * a summary (every call accounted for, each endpoint's verdict), then per endpoint its real
 * differences with examples side by side, its noise apart, and what its calls cost in v2 calls.
 * The JSON report is this object; the HTML report (html-report.ts) renders the same content.
 */

/** ready: compared, no real difference; differs: at least one; not exercised: no call of it was compared. */
export type Verdict = 'ready' | 'differs' | 'not exercised';

/**
 * Why a call was not compared: a write (not replayed, or in shadow mode forwarded only), a rate
 * limit still refusing it, a target that failed, or (shadow mode) a full comparison queue.
 */
export type NotCompared = 'writes' | 'limited' | 'failed' | 'dropped' | 'too-large';

export interface FieldReport {
  field: string;
  kind: DifferenceKind;
  count: number;
  /** Set when every occurrence was noise: the rule that explains it. */
  noise?: string;
  /** Where the field comes from, in words (field-sources.ts). */
  why: string;
  source: FieldSource;
  examples: { a: unknown; b: unknown; params?: RecordedCall['params'] }[];
}

export interface EndpointReport {
  path: string;
  verdict: Verdict;
  /** Calls of it in the recording (in shadow mode: sampled calls seen). */
  recorded: number;
  /** Calls compared. */
  calls: number;
  /** Compared calls with at least one real difference. */
  differing: number;
  /** Calls not compared, by reason (only reasons that happened). */
  not_compared: Partial<Record<NotCompared, number>>;
  /** v2 calls per v1 call: each side's average where it says (v1gate's X-V2-Calls), and the declared typical count. */
  v2_calls_per_call: { a?: number; b?: number; declared?: number | string };
  /** Real differences, most frequent first. */
  real: FieldReport[];
  /** Expected differences (minted ids, links, times...), most frequent first. */
  noise: FieldReport[];
}

export interface ReportSummary {
  recorded: number;
  compared: number;
  differing_calls: number;
  real_differences: number;
  noise_differences: number;
  not_compared: Record<NotCompared, number>;
  /** Calls refused for a rate limit, waited out and sent again (each counted once). */
  retried: number;
  endpoints: { ready: number; differs: number; not_exercised: number; not_recorded: number };
  /** Every recorded call accounted for, in one sentence. */
  line: string;
}

export interface CompareReport {
  a: string;
  b: string;
  noise?: string;
  generated_at: string;
  summary: ReportSummary;
  /** Differing first (most differing calls first), then ready, then not exercised; by path within each. */
  endpoints: EndpointReport[];
}

/** A difference as classified by the noise rules (`noise`: the rule, when one applies). */
export interface ClassifiedDifference extends Difference {
  noise?: string | undefined;
}

export interface TallyOptions {
  source(path: string, field: string): FieldSource;
  /** The declared typical v2 calls per v1 call of an endpoint (undefined for a path no endpoint serves). */
  declaredCost?(path: string): number | string | undefined;
  /** Examples kept per field. */
  examples?: number;
  /** Fields kept over all endpoints; past it, new fields are counted only in their calls (memory stays bounded). */
  maxRows?: number;
}

interface EndpointTally {
  recorded: number;
  calls: number;
  differing: number;
  notCompared: Partial<Record<NotCompared, number>>;
  cost: Record<'a' | 'b', { calls: number; v2: number }>;
  rows: Map<string, FieldReport>;
}

const DEFAULT_MAX_ROWS = 2_000;

/** The running counts of one comparison (a replay, or a shadow's life), read as a report at any time. */
export class ReportTally {
  private readonly endpoints = new Map<string, EndpointTally>();
  private rowCount = 0;
  private retried = 0;

  constructor(private readonly options: TallyOptions) {}

  private of(path: string): EndpointTally {
    let tally = this.endpoints.get(path);
    if (!tally) {
      tally = {
        recorded: 0,
        calls: 0,
        differing: 0,
        notCompared: {},
        cost: { a: { calls: 0, v2: 0 }, b: { calls: 0, v2: 0 } },
        rows: new Map(),
      };
      this.endpoints.set(path, tally);
    }
    return tally;
  }

  /** A call of `path` was recorded (or, in shadow mode, sampled). */
  recorded(path: string): void {
    this.of(path).recorded++;
  }

  notCompared(path: string, reason: NotCompared): void {
    const counts = this.of(path).notCompared;
    counts[reason] = (counts[reason] ?? 0) + 1;
  }

  /** A call was refused for a rate limit, waited out and sent again. */
  retry(): void {
    this.retried++;
  }

  /** What one side said a call cost in v2 calls. */
  cost(path: string, side: 'a' | 'b', v2Calls: number | undefined): void {
    if (v2Calls === undefined) return;
    const cost = this.of(path).cost[side];
    cost.calls++;
    cost.v2 += v2Calls;
  }

  /**
   * One compared call's differences; true when at least one is real. `redactor`: applied to the
   * examples kept (shadow mode keeps them for its whole life, so they are kept redacted).
   */
  compared(path: string, differences: readonly ClassifiedDifference[], params?: RecordedCall['params'], redactor?: Redactor): boolean {
    const tally = this.of(path);
    tally.calls++;
    let real = false;
    for (const difference of differences) {
      if (!difference.noise) real = true;
      this.count(path, tally, difference, params, redactor);
    }
    if (real) tally.differing++;
    return real;
  }

  private count(
    path: string,
    tally: EndpointTally,
    d: ClassifiedDifference,
    params: RecordedCall['params'] | undefined,
    redactor: Redactor | undefined,
  ): void {
    // Real and noisy occurrences of one field are counted apart, so noise never hides a real one.
    const key = `${d.field}\n${d.kind}\n${d.noise ?? ''}`;
    let row = tally.rows.get(key);
    if (!row) {
      if (this.rowCount >= (this.options.maxRows ?? DEFAULT_MAX_ROWS)) return;
      const source = this.options.source(path, d.field);
      row = { field: d.field, kind: d.kind, count: 0, ...(d.noise ? { noise: d.noise } : {}), why: whyOf(d, source), source, examples: [] };
      tally.rows.set(key, row);
      this.rowCount++;
    }
    row.count++;
    if (row.examples.length < (this.options.examples ?? 3)) {
      const example = { a: exampleValue(d.field, d.a), b: exampleValue(d.field, d.b), ...(params ? { params } : {}) };
      row.examples.push(redactor ? redactor.redact(example) : example);
    }
  }

  /** The real field differences, with their endpoint (shadow mode's mismatch rows). */
  realRows(): (FieldReport & { endpoint: string })[] {
    return [...this.endpoints].flatMap(([endpoint, tally]) =>
      [...tally.rows.values()].filter((r) => !r.noise).map((r) => ({ endpoint, ...r })),
    );
  }

  /** The tally as a report; `serves`: the endpoints that could have been exercised (those never seen are listed as not exercised). */
  report(head: { a: string; b: string; noise?: string | undefined }, serves: readonly string[] = []): CompareReport {
    const endpoints = [...this.endpoints].map(([path, tally]) => this.endpointReport(path, tally));
    const seen = new Set(endpoints.map((e) => canonicalPath(e.path)));
    for (const path of new Set(serves.map(canonicalPath))) if (!seen.has(path)) endpoints.push(this.endpointReport(path, undefined));
    endpoints.sort(byVerdict);
    return {
      a: head.a,
      b: head.b,
      ...(head.noise ? { noise: head.noise } : {}),
      generated_at: new Date().toISOString(),
      summary: summaryOf(endpoints, this.retried),
      endpoints,
    };
  }

  private endpointReport(path: string, tally: EndpointTally | undefined): EndpointReport {
    const rows = [...(tally?.rows.values() ?? [])].sort((x, y) => y.count - x.count || x.field.localeCompare(y.field));
    const calls = tally?.calls ?? 0;
    const differing = tally?.differing ?? 0;
    const average = (side: 'a' | 'b') => {
      const cost = tally?.cost[side];
      return cost && cost.calls > 0 ? Math.round((cost.v2 / cost.calls) * 100) / 100 : undefined;
    };
    const a = average('a');
    const b = average('b');
    const declared = this.options.declaredCost?.(path);
    return {
      path,
      verdict: calls === 0 ? 'not exercised' : differing > 0 ? 'differs' : 'ready',
      recorded: tally?.recorded ?? 0,
      calls,
      differing,
      not_compared: { ...tally?.notCompared },
      v2_calls_per_call: {
        ...(a !== undefined ? { a } : {}),
        ...(b !== undefined ? { b } : {}),
        ...(declared !== undefined ? { declared } : {}),
      },
      real: rows.filter((r) => !r.noise),
      noise: rows.filter((r) => r.noise),
    };
  }
}

function whyOf(d: Difference, source: FieldSource): string {
  if (d.kind === 'format') {
    return `the whole answer: A answered ${String(d.a)}, B answered ${String(d.b)}; answers in two formats are not compared field by field`;
  }
  return describeSource(source);
}

const VERDICT_ORDER: Record<Verdict, number> = { differs: 0, ready: 1, 'not exercised': 2 };

function byVerdict(x: EndpointReport, y: EndpointReport): number {
  return (
    VERDICT_ORDER[x.verdict] - VERDICT_ORDER[y.verdict] ||
    y.differing - x.differing ||
    y.recorded - x.recorded ||
    x.path.localeCompare(y.path)
  );
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

function summaryOf(endpoints: readonly EndpointReport[], retried: number): ReportSummary {
  const sum = (pick: (e: EndpointReport) => number) => endpoints.reduce((n, e) => n + pick(e), 0);
  const notCompared = {
    writes: sum((e) => e.not_compared.writes ?? 0),
    limited: sum((e) => e.not_compared.limited ?? 0),
    failed: sum((e) => e.not_compared.failed ?? 0),
    dropped: sum((e) => e.not_compared.dropped ?? 0),
    'too-large': sum((e) => e.not_compared['too-large'] ?? 0),
  };
  const count = (verdict: Verdict) => endpoints.filter((e) => e.verdict === verdict).length;
  const summary = {
    recorded: sum((e) => e.recorded),
    compared: sum((e) => e.calls),
    differing_calls: sum((e) => e.differing),
    real_differences: sum((e) => e.real.reduce((n, f) => n + f.count, 0)),
    noise_differences: sum((e) => e.noise.reduce((n, f) => n + f.count, 0)),
    not_compared: notCompared,
    retried,
    endpoints: {
      ready: count('ready'),
      differs: count('differs'),
      not_exercised: endpoints.filter((e) => e.verdict === 'not exercised' && e.recorded > 0).length,
      not_recorded: endpoints.filter((e) => e.recorded === 0).length,
    },
  };
  const parts = [
    `${plural(summary.compared, 'compared', 'compared')} (${plural(summary.differing_calls, 'with real differences', 'with real differences')})`,
    ...(notCompared.writes ? [`${plural(notCompared.writes, 'write')} not replayed`] : []),
    ...(notCompared.limited ? [`${plural(notCompared.limited, 'call')} still refused for rate limits`] : []),
    ...(notCompared.failed ? [`${plural(notCompared.failed, 'call')} failed`] : []),
    ...(notCompared.dropped ? [`${plural(notCompared.dropped, 'call')} not compared (queue full)`] : []),
    ...(notCompared['too-large'] ? [`${plural(notCompared['too-large'], 'call')} not compared (answer too large)`] : []),
  ];
  const line =
    `${plural(summary.recorded, 'recorded call')}: ${parts.join(', ')}` +
    (retried ? `; ${plural(retried, 'call')} waited out a rate limit and retried` : '') +
    `. Endpoints: ${summary.endpoints.ready} ready, ${summary.endpoints.differs} differ, ${summary.endpoints.not_exercised} not exercised.`;
  return { ...summary, line };
}

/** Real (not noise) field differences in the report: what `--max-diff` is held against. */
export const realDifferences = (report: CompareReport): number => report.summary.real_differences;
