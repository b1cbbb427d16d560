import { describe, expect, it } from 'vitest';
import { recordingBytes, spanOf } from './recording-downloads.js';

describe("a recording file's bytes", () => {
  it('are the same at an offset however they are cut: every chunking gives one sequence', () => {
    const bytes = recordingBytes('file-1');
    const whole = bytes(0, 400_000 - 1);
    for (const piece of [1, 7_000, 65_520, 65_521, 65_536, 100_003]) {
      const parts: Buffer[] = [];
      for (let at = 0; at < whole.length; at += piece) parts.push(bytes(at, Math.min(at + piece, whole.length) - 1));
      expect(Buffer.concat(parts).equals(whole), `pieces of ${piece}`).toBe(true);
    }
    // A long read that starts near the end of the repeating block, against the same bytes read one by one.
    const start = 65_510;
    const long = bytes(start, start + 70_000);
    const oneByOne = Buffer.from(Array.from({ length: long.length }, (_, i) => bytes(start + i, start + i)[0]!));
    expect(long.equals(oneByOne)).toBe(true);
    expect(recordingBytes('file-2')(0, 1000).equals(whole.subarray(0, 1001))).toBe(false);
  });
});

describe('a Range header', () => {
  it('is read as RFC 9110 reads one byte range', () => {
    expect(spanOf(undefined, 100)).toEqual({ start: 0, end: 99, partial: false });
    expect(spanOf('bytes=10-19', 100)).toEqual({ start: 10, end: 19, partial: true });
    expect(spanOf('bytes=90-', 100)).toEqual({ start: 90, end: 99, partial: true });
    expect(spanOf('bytes=90-1000', 100)).toEqual({ start: 90, end: 99, partial: true });
    expect(spanOf('bytes=-10', 100)).toEqual({ start: 90, end: 99, partial: true });
    expect(spanOf('bytes=-1000', 100)).toEqual({ start: 0, end: 99, partial: true });
    expect(spanOf('bytes=100-', 100)).toBe('unsatisfiable');
    expect(spanOf('bytes=20-10', 100)).toBe('unsatisfiable');
    expect(spanOf('bytes=-0', 100)).toBe('unsatisfiable');
    // What this server does not read (several ranges, another unit) is answered whole, as RFC 9110 allows.
    expect(spanOf('bytes=0-1,5-6', 100)).toEqual({ start: 0, end: 99, partial: false });
    expect(spanOf('items=0-1', 100)).toEqual({ start: 0, end: 99, partial: false });
  });
});
