import { execFileSync, spawn } from 'node:child_process';
import fs, { constants, mkdtempSync, openSync, readFileSync, readSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino, { type Logger } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SecretValues } from '../shared/secrets.js';
import type { V1CallRecord } from '../v1-steps/observe.js';
import { logDestination, type LogDestination, type LogDestinationOptions } from './log-destination.js';
import { callLogObserver, createLogger, loggerSettings, reportDroppedLines } from './logging.js';
import { RECORD } from '../../bench/call-record.js';

/**
 * The gateway's log destination (sonic-boom in buffer mode, src/ops/log-destination.ts) writes every
 * line, call lines and pino's own, in the order written, byte for byte whatever their characters,
 * without measuring its batch on each line; its process-level flushes (on exit, after a fatal line)
 * are held by test/ops/log-flush.test.ts.
 */

const SECRET = 'the-api-secret-of-this-key';

const recordOf = (i: number): V1CallRecord => ({
  ...RECORD,
  requestId: `req-${i}`,
  secrets: new SecretValues([SECRET]),
  // Multi-byte text: a byte count taken as a character count would cut or shift the lines.
  params: { email: `é☃😀-${i}@example.com`, note: `carries ${SECRET}` },
});

const folder = mkdtempSync(join(tmpdir(), 'v1gate-log-destination-'));
let files = 0;
/** The streams a test left open, closed after it. */
const open = new Set<LogDestination>();
afterEach(() => {
  for (const stream of open) stream.destroy();
  vi.restoreAllMocks();
});

function destinationOf(options: Omit<LogDestinationOptions, 'dest'>): { file: string; stream: LogDestination } {
  const file = join(folder, `log-${++files}.jsonl`);
  const stream = logDestination({ dest: file, ...options });
  open.add(stream);
  stream.once('close', () => open.delete(stream));
  return { file, stream };
}

/** `pairs` call lines, each followed by a line of pino's own, through one logger. */
function writePairs(logger: Logger, pairs: number): void {
  const observe = callLogObserver(logger);
  for (let i = 0; i < pairs; i++) {
    observe(recordOf(i));
    logger.info({ after: i, text: `pino's own ☃ ${i}` }, 'between calls');
  }
}

const ended = (stream: LogDestination) =>
  new Promise<void>((resolve) => {
    stream.once('close', () => resolve());
    stream.end();
  });

type Line = { msg: string; reqId?: string; after?: number; params?: { email: string; note: string }; text?: string };

/** The file's lines in order, and a check that each is one whole JSON object. */
function linesOf(file: string): Line[] {
  const text = readFileSync(file, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line) as Line);
}

function expectPairs(lines: Line[], pairs: number): void {
  expect(lines).toHaveLength(2 * pairs);
  lines.forEach((line, n) => {
    const i = Math.floor(n / 2);
    if (n % 2 === 0) expect(line).toMatchObject({ msg: 'v1 call', reqId: `req-${i}`, params: { email: `é☃😀-${i}@example.com` } });
    else expect(line).toMatchObject({ msg: 'between calls', after: i, text: `pino's own ☃ ${i}` });
  });
}

describe('the log destination', () => {
  it('writes every call line and pino line in the order written, batched and asynchronous, multi-byte text intact', async () => {
    const { file, stream } = destinationOf({ sync: false, batchBytes: 4096 });
    // Enough lines for many 4 KiB batches and a write in flight while more are gathered.
    writePairs(pino(loggerSettings({ level: 'info' }), stream), 400);
    await ended(stream);
    const lines = linesOf(file);
    expectPairs(lines, 400);
    expect(readFileSync(file, 'utf8')).not.toContain(SECRET);
  });

  it('writes no batch larger than its bytes, however the lines fall and while a write is in flight', async () => {
    const { file, stream } = destinationOf({ sync: false, batchBytes: 4096 });
    const write = vi.spyOn(fs, 'write');
    writePairs(pino(loggerSettings({ level: 'info' }), stream), 400);
    await ended(stream);
    const sizes = write.mock.calls.map(([, bytes]) => (bytes as unknown as Buffer).length);
    expectPairs(linesOf(file), 400);
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(readFileSync(file).length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(4096);
    expect(sizes.length).toBeGreaterThan(20);
  });

  it('writes each line before `write` returns when synchronous, as a LOG_FILE is written', () => {
    const { file, stream } = destinationOf({ sync: true });
    const logger = pino(loggerSettings({ level: 'info' }), stream);
    writePairs(logger, 3);
    expectPairs(linesOf(file), 3);
  });

  it("measures no batch as lines are appended: no Buffer.byteLength per write (sonic-boom's utf8 mode takes two)", async () => {
    const { file, stream } = destinationOf({ sync: false, batchBytes: 4096 });
    const logger = pino(loggerSettings({ level: 'info' }), stream);
    const measured = vi.spyOn(Buffer, 'byteLength');
    writePairs(logger, 50);
    expect(measured).not.toHaveBeenCalled();
    measured.mockRestore();
    await ended(stream);
    expectPairs(linesOf(file), 50);
  });

  it('is what the gateway writes a LOG_FILE with, and its close writes out every line first', async () => {
    const file = join(folder, 'gateway.log');
    const output = createLogger({ level: 'info', file });
    const measured = vi.spyOn(Buffer, 'byteLength');
    writePairs(output.logger, 20);
    expect(measured).not.toHaveBeenCalled();
    await output.close();
    expectPairs(linesOf(file), 20);
  });
});

const STDOUT_CHILD = fileURLToPath(new URL('../../test/ops/fixtures/stdout-descriptor-child.ts', import.meta.url));

type StdoutReport = { own?: number; inheritedNonBlocking?: boolean; inheritedBefore?: boolean; ownNonBlocking?: boolean };

/** What a child with this standard output answers: the descriptor the log writes through from the main thread (if any), and the modes. */
async function stdoutReport(stdout: number | 'pipe'): Promise<StdoutReport> {
  const child = spawn(process.execPath, ['--import', 'tsx', STDOUT_CHILD], { stdio: ['ignore', stdout, 'pipe'] });
  let report = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (report += chunk));
  await new Promise((resolve) => child.once('close', resolve));
  return JSON.parse(report) as StdoutReport;
}

/** A named pipe: its reader (non-blocking, read here), a blocking descriptor for the pool's writes and a non-blocking one for the main thread's. */
function pipeOf(): { reader: number; blocking: number; nonBlocking: number } {
  const fifo = join(folder, `pipe-${++files}`);
  execFileSync('mkfifo', [fifo]);
  const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  return { reader, blocking: openSync(fifo, 'w'), nonBlocking: openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK) };
}

/** What the pipe holds now, read without waiting. */
function drained(reader: number): string {
  const chunk = Buffer.alloc(65_536);
  let text = '';
  for (;;) {
    let read = 0;
    try {
      read = readSync(reader, chunk);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return text;
      throw error;
    }
    if (read === 0) return text;
    text += chunk.subarray(0, read).toString('utf8');
  }
}

const lineCount = (text: string) => text.split('\n').length - 1;
const parsed = (text: string) =>
  text
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line) as Line);

describe('the log destination writing from the main thread', () => {
  it('writes each batch at once through the non-blocking descriptor, none over its bytes, in order, with no write from the pool', () => {
    const pipe = pipeOf();
    const stream = logDestination({ dest: pipe.blocking, sync: false, batchBytes: 4096, mainThreadFd: pipe.nonBlocking });
    open.add(stream);
    const pooled = vi.spyOn(fs, 'write');
    const now = vi.spyOn(fs, 'writeSync');
    const logger = pino(loggerSettings({ level: 'info' }), stream);
    let text = '';
    // A reader that keeps up: the pipe is read between every ten calls.
    for (let round = 0; round < 40; round++) {
      writePairs(logger, 10);
      text += drained(pipe.reader);
    }
    expect(pooled).not.toHaveBeenCalled();
    const sizes = now.mock.calls.map(([, bytes]) => (bytes as unknown as Buffer).length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(4096);
    expect(sizes.length).toBeGreaterThan(20);
    // Every batch written so far is whole lines, in order; what is left is the batch being gathered.
    expect(text.endsWith('\n')).toBe(true);
    const lines = parsed(text);
    expect(lines.length).toBeGreaterThan(700);
    lines.forEach((line, n) => expect(line.msg).toBe(n % 2 === 0 ? 'v1 call' : 'between calls'));
  });

  it('never waits on a full pipe: what it cannot take now goes from the pool, and every line arrives in order once read', async () => {
    const pipe = pipeOf();
    const stream = logDestination({ dest: pipe.blocking, sync: false, batchBytes: 4096, mainThreadFd: pipe.nonBlocking });
    open.add(stream);
    const pooled = vi.spyOn(fs, 'write');
    // Four times what a pipe holds, nothing read meanwhile: this returns, the process never stopped.
    writePairs(pino(loggerSettings({ level: 'info' }), stream), 400);
    expect(pooled).toHaveBeenCalled();
    let text = '';
    const readUntil = async (done: () => boolean) => {
      while (!done()) {
        text += drained(pipe.reader);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    // The pool's write waits for the reader; the batches behind it follow as the pipe empties.
    let flushed = false;
    stream.flush(() => (flushed = true));
    await readUntil(() => flushed);
    // Then the batch that was still gathering (a flush during a write leaves it, as the gateway's next interval's flush takes it).
    stream.flush();
    await readUntil(() => lineCount(text) === 800);
    expectPairs(parsed(text), 400);
    const sizes = pooled.mock.calls.map(([, bytes]) => (bytes as unknown as Buffer).length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(4096);
  });

  it('holds at most its bound while nothing reads: the lines past it are dropped whole, counted and told once the pipe is read', async () => {
    const pipe = pipeOf();
    const bound = 256 * 1024;
    const stream = logDestination({
      dest: pipe.blocking,
      sync: false,
      batchBytes: 4096,
      mainThreadFd: pipe.nonBlocking,
      maxBufferedBytes: bound,
    });
    open.add(stream);
    const logger = pino(loggerSettings({ level: 'info' }), stream);
    const tellDrops = reportDroppedLines(stream, logger);
    let dropped = 0;
    stream.on('drop', () => dropped++);
    const held = () => (stream as unknown as { _len: number })._len;
    // About 2 MB of lines against a pipe of 64 KiB and a bound of 256 KiB, nothing read.
    let most = 0;
    const pairs = 4_000;
    for (let i = 0; i < pairs; i++) {
      writePairs(logger, 1);
      most = Math.max(most, held());
    }
    expect(most).toBeLessThanOrEqual(bound);
    expect(dropped).toBeGreaterThan(pairs);
    // While the pipe stays full, the warning is dropped too and the count kept.
    const before = dropped;
    tellDrops();
    expect(dropped).toBe(before + 1);
    let text = '';
    const readUntil = async (done: () => boolean) => {
      while (!done()) {
        text += drained(pipe.reader);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    // Read until what is held is less than a batch (the last, gathering, waits for a flush).
    await readUntil(() => held() < 4096);
    tellDrops();
    stream.flush();
    await readUntil(() => text.includes('log lines dropped'));
    const lines = parsed(text);
    // Whole lines only, each in the order written; every line written is either here or counted.
    const calls = lines.filter((line) => line.msg === 'v1 call').map((line) => Number(line.reqId!.slice(4)));
    expect(calls).toEqual([...calls].sort((a, b) => a - b));
    const warning = lines.at(-1) as Line & { droppedLines: number; level: number };
    expect(warning).toMatchObject({ msg: 'log lines dropped: standard output was not read', level: 40 });
    expect(lines.length - 1 + warning.droppedLines).toBe(2 * pairs);
  });

  it("opens standard output's own non-blocking descriptor on a pipe, leaving the inherited one as it was", async () => {
    const report = await stdoutReport(pipeOf().blocking);
    expect(report.ownNonBlocking).toBe(true);
    expect(report.inheritedNonBlocking).toBe(report.inheritedBefore);
    expect(report.own).toBeGreaterThan(2);
  });

  it('writes through standard output itself where it is a socket Node has made non-blocking, and never through a file', async () => {
    // A child's `stdio: 'pipe'` is a socket pair, which its process.stdout (read by tsx's loader here, by the logger's terminal check in the gateway) made non-blocking.
    expect(await stdoutReport('pipe')).toMatchObject({ own: 1, inheritedNonBlocking: true });
    expect(await stdoutReport(openSync(join(folder, `stdout-${++files}.txt`), 'w'))).toEqual({
      inheritedNonBlocking: false,
      inheritedBefore: false,
    });
  });
});
