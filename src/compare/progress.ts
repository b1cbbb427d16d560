import type { Progress } from './compare.js';

/**
 * A long replay's progress on standard error: a bar redrawn in place on a terminal, plain lines
 * otherwise (a CI log gets one line per tenth of the calls, and the last), never on standard
 * output, which holds the result.
 */
export interface ProgressOutput {
  isTTY?: boolean | undefined;
  columns?: number | undefined;
  write(text: string): unknown;
}

export function progressPrinter(out: ProgressOutput): { update(progress: Progress): void; end(): void } {
  let lastTenth = -1;
  let drawn = false;
  const text = (p: Progress) => `${p.done}/${p.total} calls, ${p.compared} compared, ${p.differing} with real differences`;
  return {
    update(p) {
      if (out.isTTY) {
        const width = Math.max(10, Math.min(40, (out.columns ?? 80) - text(p).length - 10));
        const filled = p.total ? Math.round((p.done / p.total) * width) : width;
        out.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${text(p)}\u001b[K`);
        drawn = true;
        return;
      }
      const tenth = p.total ? Math.floor((p.done * 10) / p.total) : 10;
      if (tenth !== lastTenth || p.done === p.total) {
        lastTenth = tenth;
        out.write(`${text(p)}\n`);
      }
    },
    end() {
      if (drawn) out.write('\n');
    },
  };
}
