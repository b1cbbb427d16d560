/**
 * Shadow mode's rule for background work: it runs only in a turn of the event loop in which no
 * forward is in flight. Forwarding and comparing share one event loop, so a comparison step that
 * runs while a primary's answer is on its way delays that answer by the step's CPU; waiting for a
 * quiet turn leaves a forward waiting at most for the one step already running when it arrived.
 */
export interface ForwardingGate {
  /** A forward began: background steps wait until it and every other one have ended. */
  started(): void;
  ended(): void;
  /** Resolves in a later turn (after pending I/O callbacks) in which no forward is in flight. */
  quiet(): Promise<void>;
  inFlight(): number;
}

export function forwardingGate(): ForwardingGate {
  let inFlight = 0;
  let waiting: (() => void)[] = [];
  const quiet = () =>
    new Promise<void>((resolve) => {
      // setImmediate runs after the I/O callbacks of this turn: a forward that arrived meanwhile
      // has started (and counted) before the check.
      const check = () => (inFlight === 0 ? resolve() : waiting.push(() => setImmediate(check)));
      setImmediate(check);
    });
  return {
    started: () => void inFlight++,
    ended() {
      if (--inFlight > 0 || waiting.length === 0) return;
      const wake = waiting;
      waiting = [];
      for (const resume of wake) resume();
    },
    quiet,
    inFlight: () => inFlight,
  };
}
