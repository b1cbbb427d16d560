import { secretsIn } from '../shared/secrets.js';
import { recordedAnswer, type Answer } from './answers.js';
import type { RecordedCall } from './calls.js';
import { diffAnswers } from './diff.js';
import type { FieldSource } from './field-sources.js';
import { isRateLimitRefusal, limitedOnOneSide } from './limited.js';
import { builtInNoise, noiseReason, observedNoise, type NoiseRule } from './noise.js';
import { ReplayPacer } from './pacing.js';
import { IdCarrier, type Reply, type Target } from './replay.js';
import { ReportTally, type CompareReport } from './report.js';
import { recordRedactor } from './secrets.js';

/**
 * `npm run compare`'s core: replay each recorded call against A and B (and A again as the noise
 * target, when given), compare the answers field by field, and tally per endpoint and field —
 * real differences apart from noise, each with examples side by side and the source of the field.
 *
 * Every recorded call is accounted for: compared, or not compared for a stated reason (a write
 * without `--writes`, a rate limit still refusing it after waiting, a target that failed). Calls
 * are paced to v1's own limits per target and key (pacing.ts), and one a target refuses for its
 * rate limits anyway is waited out (its Retry-After) and sent again.
 *
 * Several calls run at once (`concurrency`), in an order that keeps what a recording means: a
 * write waits for every call before it and holds back every call after it, and a call that sends
 * an id an earlier call's answer holds waits for that call (its id may be carried: IdCarrier).
 */

export interface CompareOptions {
  a: Target;
  b: Target;
  /** A second copy of A (Diffy's noise target): fields that differ between A and it are noise. */
  noise?: Target;
  /** Replay writes too (only against targets safe to write to); default: reads only. */
  writes: boolean;
  isRead(path: string): boolean;
  source(path: string, field: string): FieldSource;
  /** The declared typical v2 calls per v1 call of an endpoint (call-counts.ts). */
  declaredCost?(path: string): number | string | undefined;
  /** Every endpoint the targets serve: those never recorded are listed as not exercised. */
  serves?: readonly string[];
  rules?: readonly NoiseRule[];
  /** Examples kept per field. */
  examples?: number;
  /** Recorded calls in flight at once (default 4). */
  concurrency?: number;
  /** The pace: v1's limits per target and key, and `--rate` (default: v1's limits alone). */
  pacer?: ReplayPacer;
  /** Attempts per call and target when a target refuses it for its rate limits (default 6). */
  attempts?: number;
  /** After each recorded call is done. */
  onProgress?(progress: Progress): void;
}

export interface Progress {
  done: number;
  total: number;
  compared: number;
  differing: number;
}

/** What one target answered after the pace and the retries: the reply, or why there is none; `retried` after a rate-limit refusal. */
type Outcome = ({ reply: Reply } | { notCompared: 'limited' | 'failed' }) & { retried: boolean };

const DEFAULT_ATTEMPTS = 6;
/** A refusal without Retry-After is waited out this long: v1's tightest class refills a token a second. */
const DEFAULT_RETRY_MS = 1_000;

export async function compareCalls(calls: readonly RecordedCall[], options: CompareOptions): Promise<CompareReport> {
  const run = new Replay(options, calls.length);
  await run.all(calls);
  return run.report();
}

class Replay {
  private readonly rules: readonly NoiseRule[];
  private readonly tally: ReportTally;
  private readonly carriers = { a: new IdCarrier(), b: new IdCarrier(), noise: new IdCarrier() };
  private readonly pacer: ReplayPacer;
  /** Every secret seen (the replayed api_secrets, each token any answer carried): none reaches the report. */
  private readonly seen: Set<string>;
  private readonly progress: Progress;

  constructor(
    private readonly options: CompareOptions,
    total: number,
  ) {
    this.rules = options.rules ?? builtInNoise();
    this.tally = new ReportTally({ source: options.source, declaredCost: options.declaredCost, examples: options.examples });
    this.pacer = options.pacer ?? new ReplayPacer();
    this.seen = new Set([...options.a.secrets, ...options.b.secrets, ...(options.noise?.secrets ?? [])]);
    this.progress = { done: 0, total, compared: 0, differing: 0 };
  }

  /** Every call, in an order that keeps the recording's meaning (see the module comment). */
  async all(calls: readonly RecordedCall[]): Promise<void> {
    const limit = Math.max(1, this.options.concurrency ?? 4);
    const inFlight = new Set<Promise<void>>();
    /** Identifier value → the call whose recorded answer holds it. */
    const producers = new Map<string, Promise<void>>();
    for (const call of calls) {
      this.tally.recorded(call.path);
      const write = !this.options.isRead(call.path);
      if (write && !this.options.writes) {
        this.tally.notCompared(call.path, 'writes');
        this.done();
        continue;
      }
      if (write) await Promise.all(inFlight);
      while (inFlight.size >= limit) await Promise.race(inFlight);
      const before = valuesOf(call.params).flatMap((value) => producers.get(value) ?? []);
      const task: Promise<void> = Promise.all(before)
        .then(() => this.one(call))
        .finally(() => inFlight.delete(task));
      inFlight.add(task);
      for (const id of identifiersOf(call.answer)) producers.set(id, task);
      if (write) await task;
    }
    await Promise.all(inFlight);
  }

  report(): CompareReport {
    const { a, b, noise } = this.options;
    return recordRedactor(this.seen).redact(this.tally.report({ a: a.name, b: b.name, noise: noise?.name }, this.options.serves));
  }

  private done(): void {
    this.progress.done++;
    this.options.onProgress?.({ ...this.progress });
  }

  private async one(call: RecordedCall): Promise<void> {
    const { a, b, noise } = this.options;
    const [outA, outB, outNoise] = await Promise.all([
      this.send(a, call, this.carriers.a),
      this.send(b, call, this.carriers.b),
      noise ? this.send(noise, call, this.carriers.noise) : undefined,
    ]);
    if (outA.retried || outB.retried || outNoise?.retried) this.tally.retry();
    if ('notCompared' in outA || 'notCompared' in outB) {
      this.tally.notCompared(
        call.path,
        'notCompared' in outA ? outA.notCompared : (outB as { notCompared: 'limited' | 'failed' }).notCompared,
      );
    } else {
      this.compare(call, outA.reply, outB.reply, outNoise && 'reply' in outNoise ? outNoise.reply.answer : undefined);
    }
    this.done();
  }

  private compare(call: RecordedCall, replyA: Reply, replyB: Reply, answerNoise: Answer | undefined): void {
    this.tally.cost(call.path, 'a', replyA.v2Calls);
    this.tally.cost(call.path, 'b', replyB.v2Calls);
    // A refusal left after the retries (by a target that sent no Retry-After): how busy it was, not a translation.
    if (limitedOnOneSide(replyA.answer, replyB.answer)) {
      this.tally.notCompared(call.path, 'limited');
      return;
    }
    const rules = answerNoise
      ? [...this.rules, observedNoise(new Set(diffAnswers(replyA.answer, answerNoise).map((d) => d.field)))]
      : this.rules;
    const differences = diffAnswers(replyA.answer, replyB.answer).map((d) => ({ ...d, noise: noiseReason(d, rules) }));
    this.progress.compared++;
    if (this.tally.compared(call.path, differences, call.params)) this.progress.differing++;
  }

  /** One call to one target: paced, with the target's ids carried in, and sent again after a rate-limit refusal. */
  private async send(target: Target, call: RecordedCall, carrier: IdCarrier): Promise<Outcome> {
    const attempts = this.options.attempts ?? DEFAULT_ATTEMPTS;
    for (let attempt = 1; ; attempt++) {
      const retried = attempt > 1;
      if (target.apiKey !== undefined) {
        await this.pacer.paced();
        if (!(await this.pacer.admit(target.name, target.apiKey, call.path))) return { notCompared: 'limited', retried };
      }
      let reply: Reply;
      try {
        reply = await target.call(call, carrier.substitute(call.params));
      } catch {
        return { notCompared: 'failed', retried };
      }
      secretsIn(reply.answer.value, this.seen);
      const refused = isRateLimitRefusal(reply.answer) && target.apiKey !== undefined;
      if (!refused || attempt >= attempts) {
        carrier.learn(recordedAnswer(call), reply.answer);
        return refused ? { notCompared: 'limited', retried } : { reply, retried };
      }
      await new Promise((resolve) => setTimeout(resolve, reply.retryAfterMs ?? DEFAULT_RETRY_MS));
    }
  }
}

/** Every param value, lists flattened. */
const valuesOf = (params: RecordedCall['params']) => Object.values(params).flatMap((value) => (Array.isArray(value) ? value : [value]));

/** The identifiers a recorded answer holds at its top level (`id`, `uuid`, `*_id`), as text. */
function identifiersOf(answer: unknown): string[] {
  if (typeof answer !== 'object' || answer === null) return [];
  return Object.entries(answer)
    .filter(([name, value]) => /^(id|uuid|.+_id)$/.test(name) && (typeof value === 'string' || typeof value === 'number'))
    .map(([, value]) => String(value));
}
