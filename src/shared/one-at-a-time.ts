/**
 * `work` made at most once at a time: a call while one is in flight is answered by that one's
 * result instead of starting another. For an answer that reads the moment (a /metrics render, a
 * cluster's merge of its workers' registries) that anyone may ask for as often as they like: a
 * flood of requests costs one piece of work at a time, each shared by every request that came while
 * it was being made, where each used to make its own and all of them took turns on one event loop.
 * A call after the work in flight has ended starts new work, so a request never gets an answer made
 * before the one before it had been answered.
 */
export function oneAtATime<T>(work: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | undefined;
  return () => {
    if (inFlight) return inFlight;
    const made = work().finally(() => {
      if (inFlight === made) inFlight = undefined;
    });
    inFlight = made;
    return made;
  };
}
