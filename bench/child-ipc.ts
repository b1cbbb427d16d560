/**
 * The measured side of the benchmark's parent ↔ child protocol (procs.ts is the parent side):
 * a server process answers `cpu` and `memory` (after a full GC when node runs with --expose-gc)
 * and shuts down cleanly on `stop` or when the parent goes away.
 */
export function answerParent(stop: () => Promise<unknown>): void {
  const exit = () => process.exit(0);
  process.on('message', (message: { type?: string }) => {
    if (message?.type === 'cpu') process.send?.({ type: 'cpu', usage: process.cpuUsage() });
    if (message?.type === 'memory') {
      (globalThis as { gc?: () => void }).gc?.();
      process.send?.({ type: 'memory', usage: process.memoryUsage() });
    }
    if (message?.type === 'stop') void stop().finally(exit);
  });
  process.on('disconnect', exit);
}
