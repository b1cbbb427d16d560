import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { callLogObserver, createLogger, loggerSettings, stdoutDestination } from '../src/ops/logging.js';
import { RECORD } from './call-record.js';

/**
 * `npm run bench:logs`: the CPU one v1 call's log line costs, for each way of writing standard
 * output to a pipe (as under docker or kubectl): the gateway's own (4 KiB batches, written out at
 * least every LOG_FLUSH_INTERVAL_MS), a synchronous write per line, and the gateway's batches with
 * no interval (lines could wait until shutdown). Each runs in a child process whose standard output this
 * process reads and throws away, as a log collector would; the child measures its own CPU (user and
 * system) over the lines it writes, after a warm-up, and the time its event loop was busy (what a
 * v1 call waits behind: the line's making, redaction and serialisation, and the write's completions;
 * a write itself runs on libuv's threads).
 *
 *   npm run bench:logs [-- --lines 200000 --rounds 3]
 */

const MODES = ['gateway', 'sync', 'batched-no-interval'] as const;
type Mode = (typeof MODES)[number];

function loggerOf(mode: Mode) {
  const settings = loggerSettings({ level: 'info' });
  if (mode === 'gateway') return createLogger({ level: 'info', pretty: false });
  // Without the interval: the gateway's own destination (its 4 KiB batches, written from the main thread where they can be).
  const destination = mode === 'sync' ? pino.destination({ dest: 1, sync: true }) : stdoutDestination();
  const logger = pino(settings, destination);
  return { logger, close: async () => logger.flush() };
}

/** In the child: write `lines` call lines after a warm-up, and report the CPU they took. */
async function child(mode: Mode, lines: number): Promise<void> {
  const output = loggerOf(mode);
  const observe = callLogObserver(output.logger);
  for (let i = 0; i < Math.min(20_000, lines); i++) observe(RECORD);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const before = process.cpuUsage();
  const loopBefore = performance.eventLoopUtilization();
  for (let i = 0; i < lines; i++) {
    observe(RECORD);
    // Let the event loop turn now and then, as a server's does between requests (async writes complete there).
    if (i % 100 === 99) await new Promise((resolve) => setImmediate(resolve));
  }
  await output.close();
  const used = process.cpuUsage(before);
  const loop = performance.eventLoopUtilization(loopBefore);
  process.stderr.write(
    `${JSON.stringify({ mode, usPerLine: (used.user + used.system) / lines, loopUsPerLine: (loop.active * 1000) / lines })}\n`,
  );
}

/** In the parent: one child per mode and round, its standard output read and dropped. */
function measure(mode: Mode, lines: number): Promise<{ usPerLine: number; loopUsPerLine: number }> {
  const self = fileURLToPath(import.meta.url);
  const proc = spawn(process.execPath, ['--import', 'tsx', self, '--child', mode, '--lines', String(lines)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout.resume();
  let errors = '';
  proc.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  return new Promise((resolve, reject) => {
    proc.once('exit', (code) => {
      const line = errors.split('\n').find((l) => l.startsWith('{"mode"'));
      if (code !== 0 || !line) return reject(new Error(`${mode} failed (${code}):\n${errors}`));
      resolve(JSON.parse(line) as { usPerLine: number; loopUsPerLine: number });
    });
  });
}

const { values } = parseArgs({ options: { child: { type: 'string' }, lines: { type: 'string' }, rounds: { type: 'string' } } });
const lines = Number(values.lines ?? 200_000);
if (values.child) {
  await child(values.child as Mode, lines);
} else {
  const rounds = Number(values.rounds ?? 3);
  const results = new Map<Mode, { usPerLine: number; loopUsPerLine: number }[]>(MODES.map((m) => [m, []]));
  // Alternated, so a change in the machine's load falls on every mode alike.
  for (let round = 0; round < rounds; round++) for (const mode of MODES) results.get(mode)!.push(await measure(mode, lines));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const figure = (xs: number[]) => `${median(xs).toFixed(2)} (${xs.map((x) => x.toFixed(2)).join(', ')})`;
  console.log(`One call's log line, ${lines} lines to a pipe, median of ${rounds} (every round), µs per line:`);
  console.log(`  ${'mode'.padEnd(20)} ${'event loop busy'.padEnd(28)} CPU of the process (every thread)`);
  for (const [mode, runs] of results) {
    console.log(`  ${mode.padEnd(20)} ${figure(runs.map((r) => r.loopUsPerLine)).padEnd(28)} ${figure(runs.map((r) => r.usPerLine))}`);
  }
}
