import { getHeapStatistics, GCProfiler } from 'node:v8';

/**
 * The bytes a process allocated on its JavaScript heap over a window: V8 keeps no running total, but
 * every byte allocated is either still in use at the end or was in use when some collection began.
 * So the total is the growth of the used heap between collections (before each GC minus after the
 * previous one) plus the growth since the last. `GCProfiler` (node:v8, public since Node 18.15)
 * reports each collection's heap statistics before and after it.
 */
export class AllocationCounter {
  private profiler: GCProfiler | undefined;
  private usedAtStart = 0;

  start(): void {
    this.profiler = new GCProfiler();
    this.usedAtStart = getHeapStatistics().used_heap_size;
    this.profiler.start();
  }

  stop(): number {
    const profiler = this.profiler;
    if (!profiler) throw new Error('alloc-stop without alloc-start');
    this.profiler = undefined;
    const usedAtEnd = getHeapStatistics().used_heap_size;
    const { statistics } = profiler.stop();
    let bytes = 0;
    let usedAfterLast = this.usedAtStart;
    for (const gc of statistics) {
      bytes += Math.max(0, gc.beforeGC.heapStatistics.usedHeapSize - usedAfterLast);
      usedAfterLast = gc.afterGC.heapStatistics.usedHeapSize;
    }
    return bytes + Math.max(0, usedAtEnd - usedAfterLast);
  }
}
