/**
 * Timing checks that hold on a busy machine. A test must not assert how fast this machine is; it
 * may assert an order: work that needs no timer settles before a timer started beside it, however
 * late the event loop runs that timer (a timer never fires early, and a loaded machine delays both
 * alike), and a wait the code under test makes is compared with the same wait made by a control
 * timer in the same run.
 */

/** Whether `pending` settled (either way) before a timer of `ms`, started now, fired. */
export async function settlesBefore(pending: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const control = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = pending.then(
    () => true as const,
    () => true as const,
  );
  try {
    return await Promise.race([settled, control]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The time `steps` timers of `stepMs` take one after another, measured now: what this machine's
 * event loop makes of a wait of `steps × stepMs`, the control for a limiter's spacing measured
 * alongside it.
 */
export async function timerChainMs(steps: number, stepMs: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < steps; i++) await new Promise((resolve) => setTimeout(resolve, stepMs));
  return performance.now() - started;
}
