/**
 * The time one v1 call spends in v1gate itself: from its request read to its answer's last byte,
 * less every moment it waited on something outside (a v2 answer, an outbound token, a retry's
 * pause, another call's identical GET). What an operator can hold v1gate to, where an end-to-end
 * latency holds the v2 service and the network too.
 *
 * Waits may overlap (a call's reads sent in parallel): the clock counts them as one, from the first
 * that begins to the last that ends.
 */
export class OwnTime {
  /** performance.now() when the call's request was read. */
  readonly startedAt = performance.now();
  private waits = 0;
  private waitingSince = 0;
  private waitedMs = 0;

  /** A wait on something outside begins. Every call is matched by one `resume`. */
  wait(): void {
    if (this.waits++ === 0) this.waitingSince = performance.now();
  }

  /** That wait is over: v1gate works for the call again. */
  resume(): void {
    if (--this.waits === 0) this.waitedMs += performance.now() - this.waitingSince;
  }

  /** Waits for `pending` (a promise of something outside): a wait from now until it settles. */
  waitFor<T>(pending: Promise<T>): Promise<T> {
    this.wait();
    const resume = () => this.resume();
    pending.then(resume, resume);
    return pending;
  }

  /** The call's own time so far, in seconds (a wait still open counts up to now as waited). */
  ownSeconds(now = performance.now()): number {
    const open = this.waits > 0 ? now - this.waitingSince : 0;
    return Math.max(0, now - this.startedAt - this.waitedMs - open) / 1000;
  }
}
