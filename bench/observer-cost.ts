import { existsSync, openSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import pino from 'pino';
import type { V1CallRecord } from '../src/v1-steps/observe.js';
import { RECORD } from './call-record.js';

/**
 * `npx tsx bench/observer-cost.ts [--other <dir>] [--calls 100000] [--rounds 7] [--yield-every 100]`: the CPU a v1
 * call's observers cost it, each alone, in this process: the call metrics (the facade's metrics
 * observer and its own-time observer) and the call's log line (made, redacted, bounded and
 * serialised by the gateway's logger settings, written in 4 KiB batches to /dev/null through the
 * tree's own destination for standard output), for a
 * checkemail of one v2 call. This checkout's `src/ops/` and, with `--other`, another tree's (a
 * revision `npm run bench:builds` exported, under bench/out/builds/<commit>/), alternated round by
 * round. `log text` is the log line handed to a destination that drops it: the line's making,
 * redaction, bounding and serialisation, without sonic-boom's buffering and write; `log write` is
 * that write alone, of a line already made (what `log line` adds to `log text`). In one process,
 * a change of a microsecond stands out where a whole gateway's CPU per
 * call, on a shared machine, varies by tens.
 *
 * `--yield-every N` lets the event loop turn after every N calls, as a server's does between
 * requests: the log's asynchronous writes complete there, so its buffer is written out as the
 * gateway's is. Without it (the default, as the rounds before 2026-11-27 05:00 ran) no write
 * completes until the round ends, and the destination's buffer holds the whole round's lines.
 */

const { values } = parseArgs({
  options: { other: { type: 'string' }, calls: { type: 'string' }, rounds: { type: 'string' }, 'yield-every': { type: 'string' } },
});
const calls = Number(values.calls ?? 200_000);
const rounds = Number(values.rounds ?? 7);
const yieldEvery = Number(values['yield-every'] ?? 0);

interface Metrics {
  observer: (record: V1CallRecord) => void;
  ownTimeObserver: (endpoint: string | undefined, seconds: number) => void;
}

type Call = (i: number) => void;

async function observersOf(root: string): Promise<{ metrics: Call; 'log line': Call; 'log text': Call; 'log write': Call }> {
  const at = (path: string) => pathToFileURL(resolve(root, path)).href;
  const { GatewayMetrics } = (await import(at('src/ops/metrics.ts'))) as {
    GatewayMetrics: new (options: { perKey: undefined; processMetrics: boolean }) => Metrics;
  };
  const { loggerSettings, callLogObserver } = (await import(at('src/ops/logging.ts'))) as typeof import('../src/ops/logging.js');
  const metrics = new GatewayMetrics({ perKey: undefined, processMetrics: false });
  // The tree's own destination for standard output (src/ops/log-destination.ts), or pino's as a tree before it made it.
  const ownDestination = existsSync(resolve(root, 'src/ops/log-destination.ts'))
    ? ((await import(at('src/ops/log-destination.ts'))) as typeof import('../src/ops/log-destination.js')).logDestination
    : pino.destination;
  const logLine = callLogObserver(pino(loggerSettings({ level: 'info' }), ownDestination(destinationOptions(root))));
  // The same line made and handed to a destination that drops it: what the line costs before sonic-boom's write.
  const logText = callLogObserver(pino(loggerSettings({ level: 'info' }), { write: () => true }));
  // The destination alone: a call line already made, written as the logger writes it (a string made for each call).
  const lines: string[] = [];
  callLogObserver(pino(loggerSettings({ level: 'info' }), { write: (line: string) => lines.push(line) }))(RECORD);
  const logWrite = ownDestination(destinationOptions(root));
  return {
    metrics: (i) => {
      metrics.observer(i % 50 === 0 ? { ...RECORD, errorCode: 300 } : RECORD);
      metrics.ownTimeObserver(RECORD.endpoint, 0.0001 + (i % 7) * 0.0002);
    },
    'log line': () => logLine(RECORD),
    'log text': () => logText(RECORD),
    'log write': (i) => logWrite.write(`${lines[0]!.slice(0, -1)}${i % 10}\n`),
  };
}

/**
 * Standard output's destination settings as the tree's gateway makes them, writing to /dev/null:
 * its batch bound (`batchBytes`) where its destination has one, else the 4 KiB `minLength` trees
 * before it set. /dev/null never makes a write wait, so the batches are written from the main
 * thread where the tree's destination can (`mainThreadFd`), as the gateway's are on a pipe.
 */
function destinationOptions(root: string): { dest: string; sync: false; minLength?: number; batchBytes?: number; mainThreadFd?: number } {
  const file = resolve(root, 'src/ops/log-destination.ts');
  const source = existsSync(file) ? readFileSync(file, 'utf8') : '';
  if (!source.includes('batchBytes')) return { dest: '/dev/null', sync: false, minLength: 4096 };
  if (!source.includes('mainThreadFd')) return { dest: '/dev/null', sync: false, batchBytes: 4096 };
  return { dest: '/dev/null', sync: false, batchBytes: 4096, mainThreadFd: openSync('/dev/null', 'w') };
}

/** `calls` calls, the event loop let turn every `yieldEvery` of them (never with 0). */
async function callsOf(call: Call): Promise<void> {
  for (let i = 0; i < calls; i++) {
    call(i);
    if (yieldEvery > 0 && i % yieldEvery === yieldEvery - 1) await new Promise((resolve) => setImmediate(resolve));
  }
}

/** µs of CPU per call over `calls` calls, after as many to warm up. */
async function usPerCall(call: Call): Promise<number> {
  await callsOf(call);
  const before = process.cpuUsage();
  await callsOf(call);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / calls;
}

const trees = [resolve(import.meta.dirname, '..'), ...(values.other ? [values.other] : [])];
const sides = await Promise.all(trees.map(async (root) => ({ root, observers: await observersOf(root) })));
const runs = new Map<string, number[]>();
for (let round = 0; round < rounds; round++) {
  for (const { root, observers } of sides) {
    for (const [what, call] of Object.entries(observers)) {
      const key = `${what.padEnd(9)} ${root === trees[0] ? 'this checkout' : root}`;
      runs.set(key, [...(runs.get(key) ?? []), await usPerCall(call)]);
    }
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const turns = yieldEvery > 0 ? `, the event loop turning every ${yieldEvery} calls` : '';
console.log(`µs of CPU per v1 call (a checkemail, one v2 call), median of ${rounds} rounds of ${calls} calls${turns} (every round):`);
for (const [name, xs] of [...runs].sort())
  console.log(`  ${median(xs).toFixed(2).padStart(6)}  ${name}  (${xs.map((x) => x.toFixed(2)).join(', ')})`);
