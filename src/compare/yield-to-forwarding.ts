/**
 * Shadow mode's rule for background work: it starts in a turn of the event loop in which no
 * forward is in flight. Forwarding and comparing share one event loop, so a comparison step that
 * runs while a primary's answer is on its way delays that answer by the step's CPU; waiting for a
 * quiet turn leaves a forward waiting at most for the one step already running when it arrived.
 *
 * The wait is bounded (`maxWaitMs`): a real primary takes tens of ms to answer, so at a steady
 * rate some forward is nearly always in flight while the loop itself is idle, and comparisons
 * would never run. Past the bound a step runs anyway, still after the turn's pending I/O
 * (setImmediate), so it can delay an answer by its own CPU only, a fraction of a millisecond.
 */
export interface ForwardingGate {
  /** A forward began: background steps wait until it and every other one have ended. */
  started(): void;
  ended(): void;
  /** Resolves in a later turn (after pending I/O callbacks) with no forward in flight, or once `maxWaitMs` have passed. */
  quiet(): Promise<void>;
  inFlight(): number;
  /** Steps waiting for a quiet turn (bounded by the comparisons running). */
  waiting(): number;
}

export function forwardingGate(maxWaitMs = 20): ForwardingGate {
  let inFlight = 0;
  // Steps waiting for the last forward to end; one that stops waiting removes itself.
  const waiting = new Set<() => void>();
  const quiet = () =>
    new Promise<void>((resolve) => {
      const deadline = performance.now() + maxWaitMs;
      let done = false;
      let timer: NodeJS.Timeout | undefined;
      const wake = () => {
        waiting.delete(wake);
        setImmediate(check);
      };
      // setImmediate runs after the I/O callbacks of this turn: a forward that arrived meanwhile
      // has started (and counted) before the check.
      const check = () => {
        if (done) return;
        if (inFlight === 0 || performance.now() >= deadline) {
          done = true;
          waiting.delete(wake);
          clearTimeout(timer);
          resolve();
          return;
        }
        waiting.add(wake);
        // A timer may fire a little before the deadline by this clock: the check then sets another.
        timer ??= setTimeout(
          () => {
            timer = undefined;
            setImmediate(check);
          },
          Math.ceil(deadline - performance.now()),
        );
      };
      setImmediate(check);
    });
  return {
    started: () => void inFlight++,
    ended() {
      if (--inFlight > 0) return;
      for (const wake of [...waiting]) wake();
    },
    quiet,
    inFlight: () => inFlight,
    waiting: () => waiting.size,
  };
}
