import { stepBetween, type TrafficStep } from './traffic.js';
import type { TrafficSnapshot } from './metrics.js';

/**
 * The status page's last 15 minutes, kept in memory: every `stepMs` (10 s) one point of what
 * happened since the previous one, at most `points` (90) of them, the oldest dropped. Per v1
 * endpoint only calls and errors, and only endpoints that had traffic in the step, so memory is
 * bounded by points × (the endpoints, a fixed list, plus one).
 */

export interface HistoryPoint {
  /** End of the step (ms since the epoch). */
  at: number;
  seconds: number;
  calls: number;
  errors: number;
  unavailable: number;
  v2Calls: number;
  p99Seconds: number | undefined;
  /** v1 calls the limiter refused in the step. */
  refusals: number;
  /** Notifications waiting in the journal at the end of the step. */
  journal: number | undefined;
  endpoints: Record<string, { calls: number; errors: number }>;
}

export interface HistorySources {
  traffic(): Promise<TrafficSnapshot>;
  /** Running total of v1 limiter refusals. */
  refusals(): number;
  /** Notifications waiting, when webhooks run in this process. */
  journalDepth(): number | undefined;
}

export class StatusHistory {
  private readonly kept: HistoryPoint[] = [];
  private previous: { at: number; traffic: TrafficSnapshot; refusals: number } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private sampling = false;

  constructor(
    private readonly sources: HistorySources,
    readonly stepMs = 10_000,
    private readonly points = 90,
  ) {}

  start(): void {
    void this.sample();
    this.timer = setInterval(() => void this.sample(), this.stepMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  history(): readonly HistoryPoint[] {
    return this.kept;
  }

  /** One point since the previous sample (the first sample only sets the baseline). */
  async sample(): Promise<void> {
    if (this.sampling) return;
    this.sampling = true;
    try {
      const at = Date.now();
      const traffic = await this.sources.traffic();
      const refusals = this.sources.refusals();
      const before = this.previous;
      this.previous = { at, traffic, refusals };
      if (!before) return;
      const step: TrafficStep = stepBetween(before.traffic, traffic);
      this.kept.push({
        at,
        seconds: (at - before.at) / 1000,
        ...step.totals,
        p99Seconds: step.p99Seconds,
        refusals: refusals - before.refusals,
        journal: this.sources.journalDepth(),
        endpoints: Object.fromEntries(step.endpoints),
      });
      if (this.kept.length > this.points) this.kept.splice(0, this.kept.length - this.points);
    } finally {
      this.sampling = false;
    }
  }
}
