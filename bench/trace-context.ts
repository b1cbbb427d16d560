import { parseArgs } from 'node:util';
import { propagateOnly } from '../src/shared/trace-context.js';
import { V2 } from '../src/v2-contract/v2-routes.js';
import { requestIdOf } from '../src/v1-steps/observe.js';

/**
 * `npm run bench:trace`: the CPU the always-on part of tracing adds to one v1 call when no exporter
 * is configured: the client's `traceparent` and `tracestate` read (or a new trace made), a span id
 * made, and the headers of two v2 calls and of the answer taken. Beside it, for scale, what the
 * facade already spent per call on its request id (`requestIdOf`: a `crypto.randomUUID()` when the
 * client sends none). Each case runs `--calls` times per round, rounds alternated, after a warm-up;
 * the figure is process CPU (user + system) per call, the median of the rounds.
 *
 *   npm run bench:trace [-- --calls 1000000 --rounds 5]
 */

const { values } = parseArgs({
  options: { calls: { type: 'string', default: '1000000' }, rounds: { type: 'string', default: '5' } },
});
const calls = Number(values.calls);
const rounds = Number(values.rounds);

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const TRACESTATE = 'rojo=00f067aa0ba902b7,congo=t61rcWkgMzE';
const ROUTE = V2.users.get;

/** Keeps results alive so the loop is not optimised away. */
let sink = 0;

/** One v1 call's trace: started from its headers, two v2 attempts' headers and the answer's header read. */
function traced(traceparent: string | undefined, tracestate: string | undefined): void {
  const call = propagateOnly.start(traceparent, tracestate);
  const first = call.attempt(ROUTE, 1, false);
  const second = call.attempt(ROUTE, 1, false);
  sink += first.traceparent.length + second.traceparent.length + (first.tracestate?.length ?? 0) + call.traceresponse.length;
}

const CASES: Record<string, () => void> = {
  'continued (traceparent + tracestate)': () => traced(TRACEPARENT, TRACESTATE),
  'new trace (no traceparent)': () => traced(undefined, undefined),
  'malformed traceparent': () => traced(`${TRACEPARENT}-extra`, TRACESTATE),
  'for scale: request id made (randomUUID)': () => {
    sink += requestIdOf(undefined).length;
  },
};

/** CPU nanoseconds per call of one round. */
function round(run: () => void): number {
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i++) run();
  const spent = process.cpuUsage(before);
  return ((spent.user + spent.system) * 1000) / calls;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

for (const run of Object.values(CASES)) round(run); // warm-up: every path compiled before any is measured
const results = new Map<string, number[]>(Object.keys(CASES).map((name) => [name, []]));
for (let r = 0; r < rounds; r++) {
  const names = Object.keys(CASES);
  for (const name of r % 2 === 0 ? names : names.reverse()) results.get(name)!.push(round(CASES[name]!));
}
console.log(`CPU per v1 call, median of ${rounds} rounds of ${calls} calls (${process.version}):`);
for (const [name, ns] of results) console.log(`  ${name.padEnd(42)} ${(median(ns) / 1000).toFixed(2)} µs`);
if (sink === 0) console.log('(nothing measured)');
