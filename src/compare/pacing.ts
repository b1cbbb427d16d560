import type { LimitDef } from '../../mappings/rate-limits.js';
import { DEFAULT_SAFETY_MARGIN, bucketSpecOf, withSafetyMargin } from '../ratelimit/bucket-specs.js';
import { classifyV1Path } from '../ratelimit/classify.js';
import { msUntilTokens, refilledTokens, type BucketSpec, type BucketState } from '../shared/token-bucket.js';

/**
 * A replay's pace: every call to a target waits until v1's own limits for its key would admit it
 * (the limit classes of mappings/rate-limits.ts, as the gateway's inbound limiter reads them:
 * 1/s for lists, reports and billing, 10/s for the rest, the daily quotas), per target and key,
 * with the same margin the gateway keeps under v2's limits, so a replay is never refused for
 * going faster than a v1 client could. `--rate` caps all calls together on top.
 *
 * A wait longer than `maxWaitMs` (a daily quota spent) is not waited: the call is reported as not
 * replayed for rate limits instead of holding the replay for hours.
 */
export interface PacerOptions {
  /** Recorded calls per second, all targets together (`--rate`); unset: only v1's limits. */
  rate?: number | undefined;
  maxWaitMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const DEFAULT_MAX_WAIT_MS = 60_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class ReplayPacer {
  private readonly buckets = new Map<string, BucketState>();
  private readonly specs = new Map<LimitDef, BucketSpec>();
  private readonly overall: BucketSpec | undefined;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly maxWaitMs: number;

  constructor(options: PacerOptions = {}) {
    this.now = options.now ?? (() => performance.now());
    this.sleep = options.sleep ?? sleep;
    this.maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    this.overall = options.rate === undefined ? undefined : { ratePerSecond: options.rate, burst: 1 };
  }

  private specOf(limit: LimitDef): BucketSpec {
    let spec = this.specs.get(limit);
    if (!spec) this.specs.set(limit, (spec = withSafetyMargin(bucketSpecOf(limit), DEFAULT_SAFETY_MARGIN)));
    return spec;
  }

  /** The buckets one call to `target` with `apiKey` on `v1Path` takes a token from, all or none. */
  private bucketsOf(target: string, apiKey: string, v1Path: string): { key: string; spec: BucketSpec }[] {
    const limitClass = classifyV1Path(v1Path);
    return limitClass.limits.map((limit, i) => ({ key: `${target} ${apiKey} ${limitClass.name} ${i}`, spec: this.specOf(limit) }));
  }

  /** Waits for a turn to send one call; false when v1's limits would not admit it within `maxWaitMs`. */
  async admit(target: string, apiKey: string, v1Path: string): Promise<boolean> {
    const buckets = this.bucketsOf(target, apiKey, v1Path);
    return this.takeAll(buckets);
  }

  /** Waits for a turn under `--rate` (nothing to wait for without it). */
  async paced(): Promise<void> {
    if (this.overall) await this.takeAll([{ key: '--rate', spec: this.overall }]);
  }

  private async takeAll(buckets: { key: string; spec: BucketSpec }[]): Promise<boolean> {
    const started = this.now();
    for (;;) {
      const now = this.now();
      const waits = buckets.map((b) => msUntilTokens(b.spec, refilledTokens(this.buckets.get(b.key), b.spec, now), 1));
      const wait = Math.max(0, ...waits);
      if (wait === 0) {
        // Checked and taken in one turn: no other call of this process can take the token between.
        for (const b of buckets) {
          this.buckets.set(b.key, { tokens: refilledTokens(this.buckets.get(b.key), b.spec, now) - 1, updatedAtMs: now });
        }
        return true;
      }
      if (now + wait - started > this.maxWaitMs) return false;
      await this.sleep(wait);
    }
  }
}
