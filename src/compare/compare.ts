import type { RecordedCall } from './calls.js';
import { diffAnswers, type Difference, type DifferenceKind } from './diff.js';
import { limitedOnOneSide } from './limited.js';
import { builtInNoise, noiseReason, observedNoise, type NoiseRule } from './noise.js';
import { IdCarrier, type Target } from './replay.js';
import { recordedAnswer } from './answers.js';
import { exampleValue, recordRedactor } from './secrets.js';
import { secretsIn } from '../shared/secrets.js';

/**
 * `npm run compare`'s core: replay each recorded call against A and B (and A again as the noise
 * target, when given), compare the answers field by field, and count the differences per
 * endpoint and field — real ones apart from noise, each with examples side by side and the
 * mapping row that explains the field.
 */

export interface CompareOptions {
  a: Target;
  b: Target;
  /** A second copy of A (Diffy's noise target): fields that differ between A and it are noise. */
  noise?: Target;
  /** Replay writes too (only against targets safe to write to); default: reads only. */
  writes: boolean;
  isRead(path: string): boolean;
  why(path: string, field: string): string;
  rules?: readonly NoiseRule[];
  /** Examples kept per field. */
  examples?: number;
}

export interface FieldReport {
  field: string;
  kind: DifferenceKind;
  count: number;
  /** Set when every occurrence was noise: the rule that explains it. */
  noise?: string;
  why: string;
  examples: { a: unknown; b: unknown; params: RecordedCall['params'] }[];
}

export interface EndpointReport {
  path: string;
  calls: number;
  differing: number;
  fields: FieldReport[];
}

export interface CompareReport {
  a: string;
  b: string;
  calls: number;
  skipped_writes: number;
  /** Calls one side refused for its rate limits (limited.ts): not compared, and not in `calls`. */
  skipped_limited: number;
  differing_calls: number;
  endpoints: EndpointReport[];
}

export async function compareCalls(calls: readonly RecordedCall[], options: CompareOptions): Promise<CompareReport> {
  const rules = options.rules ?? builtInNoise();
  const keep = options.examples ?? 3;
  const carriers = { a: new IdCarrier(), b: new IdCarrier(), noise: new IdCarrier() };
  // Every secret seen (the replayed api_secret, each token any answer carried): none reaches the report.
  const seen = new Set<string>([...options.a.secrets, ...options.b.secrets, ...(options.noise?.secrets ?? [])]);
  const endpoints = new Map<string, EndpointReport>();
  let replayed = 0;
  let skipped = 0;
  let limited = 0;
  let differing = 0;

  for (const call of calls) {
    if (!options.writes && !options.isRead(call.path)) {
      skipped++;
      continue;
    }
    const [replyA, replyB, replyNoise] = await Promise.all([
      options.a.call(call, carriers.a.substitute(call.params)),
      options.b.call(call, carriers.b.substitute(call.params)),
      options.noise?.call(call, carriers.noise.substitute(call.params)),
    ]);
    const [answerA, answerB, answerNoise] = [replyA.answer, replyB.answer, replyNoise?.answer];
    for (const answer of [answerA, answerB, answerNoise]) secretsIn(answer?.value, seen);
    const recorded = recordedAnswer(call);
    carriers.a.learn(recorded, answerA);
    carriers.b.learn(recorded, answerB);
    if (answerNoise) carriers.noise.learn(recorded, answerNoise);
    if (limitedOnOneSide(answerA, answerB)) {
      limited++;
      continue;
    }
    replayed++;

    const callRules = answerNoise ? [...rules, observedNoise(new Set(diffAnswers(answerA, answerNoise).map((d) => d.field)))] : rules;
    const differences = diffAnswers(answerA, answerB);
    let endpoint = endpoints.get(call.path);
    if (!endpoint) {
      endpoint = { path: call.path, calls: 0, differing: 0, fields: [] };
      endpoints.set(call.path, endpoint);
    }
    endpoint.calls++;
    let real = false;
    for (const difference of differences) {
      const reason = noiseReason(difference, callRules);
      if (!reason) real = true;
      count(endpoint, difference, reason, call, options.why(call.path, difference.field), keep);
    }
    if (real) {
      endpoint.differing++;
      differing++;
    }
  }
  return recordRedactor(seen).redact({
    a: options.a.name,
    b: options.b.name,
    calls: replayed,
    skipped_writes: skipped,
    skipped_limited: limited,
    differing_calls: differing,
    endpoints: [...endpoints.values()].sort((x, y) => y.differing - x.differing || x.path.localeCompare(y.path)),
  });
}

function count(endpoint: EndpointReport, d: Difference, noise: string | undefined, call: RecordedCall, why: string, keep: number): void {
  // Real and noisy occurrences of one field are counted apart, so noise never hides a real one.
  let field = endpoint.fields.find((f) => f.field === d.field && f.kind === d.kind && (f.noise === undefined) === (noise === undefined));
  if (!field) {
    field = { field: d.field, kind: d.kind, count: 0, why, examples: [], ...(noise ? { noise } : {}) };
    endpoint.fields.push(field);
  }
  field.count++;
  if (field.examples.length < keep)
    field.examples.push({ a: exampleValue(d.field, d.a), b: exampleValue(d.field, d.b), params: call.params });
}

/** Real (not noise) differences in the report: what `--max-diff` is held against. */
export function realDifferences(report: CompareReport): number {
  return report.endpoints.reduce((sum, e) => sum + e.fields.filter((f) => f.noise === undefined).reduce((s, f) => s + f.count, 0), 0);
}
