import { describe, expect, it } from 'vitest';
import { progressPrinter } from './progress.js';

const progress = (done: number, total = 20) => ({ done, total, compared: done, differing: 0 });

describe('replay progress', () => {
  it('redraws one bar in place on a terminal, and ends its line', () => {
    const written: string[] = [];
    const printer = progressPrinter({ isTTY: true, columns: 100, write: (text) => written.push(text) });
    printer.update(progress(5));
    printer.update(progress(20));
    printer.end();
    expect(written[0]!.startsWith('\r[')).toBe(true);
    expect(written[0]!.endsWith('] 5/20 calls, 5 compared, 0 with real differences\u001b[K')).toBe(true);
    expect(written[0]).toMatch(/\[#+\.+\]/);
    expect(written[1]).toMatch(/^\r\[#+\] 20\/20 calls/);
    expect(written.at(-1)).toBe('\n');
  });

  it('writes a plain line per tenth of the calls elsewhere (a CI log), the last included', () => {
    const written: string[] = [];
    const printer = progressPrinter({ isTTY: false, write: (text) => written.push(text) });
    for (let done = 1; done <= 20; done++) printer.update(progress(done));
    printer.end();
    expect(written).toHaveLength(11); // the first call, then each tenth
    expect(written.every((line) => /^\d+\/20 calls, \d+ compared, 0 with real differences\n$/.test(line))).toBe(true);
    expect(written.at(-1)).toBe('20/20 calls, 20 compared, 0 with real differences\n');
  });
});
