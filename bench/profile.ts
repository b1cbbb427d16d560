import { parseArgs } from 'node:util';
import { buildCases } from './cases.js';
import { floorEnvOf, formsOf, gatewayEnvOf, steadyLoadOf, Upstreams } from './harness.js';
import { allocatedShareByArea, busyShareByArea, readProfile, type HeapProfileNode } from './profile-areas.js';
import { readFileSync } from 'node:fs';
import { buildServers, startChild, type Child } from './procs.js';
import { countSyscalls, type SyscallCounts } from './syscall-counter.js';

/**
 * `npm run bench:profile -- [--case checkemail-distinct] [--rate 2500] [--duration 10] [--warmup-calls 20000] [--count-rate 500]`
 *
 * Where each side's CPU per call goes, floor against v1gate, at one steady rate: both are warmed
 * up, then each is profiled over a window of steady load alone (start-up and warm-up left out, as
 * `--cpu-prof` cannot), and its busy samples, grouped by area (bench/profile-areas.ts), are turned
 * into µs per call with the CPU per call measured over the same window. The profiles stay in
 * bench/out/profiles/ for bench/profile-summary.ts (functions, files, inclusive time).
 *
 * Then what a call costs besides time, each side over one more window at `--count-rate` (strace
 * slows every system call it sees, so that window is slower than the profiled one and its CPU is
 * not read): the system calls per call by what they touch (the client's socket, v2's socket, the
 * log, the event loop), and the bytes allocated on the heap per call.
 *
 * A steady rate both sides hold, so neither is saturated and each call is charged the same way;
 * the default is near half the floor's peak on a 2-core machine.
 */

const { values } = parseArgs({
  options: {
    case: { type: 'string', default: 'checkemail-distinct' },
    rate: { type: 'string', default: '2500' },
    duration: { type: 'string', default: '10' },
    'warmup-calls': { type: 'string', default: '20000' },
    'count-rate': { type: 'string', default: '500' },
  },
});
const rate = Number(values.rate);
const durationSec = Number(values.duration);
const countRate = Number(values['count-rate']);
/** Long enough for a few thousand calls at the count rate; strace's trace of it stays a few MB. */
const COUNT_WINDOW_SEC = 4;

const c = buildCases(() => true).find((each) => each.id === values.case);
if (!c) throw new Error(`unknown case: ${values.case}`);

console.log('compiling the servers (bench/tsconfig.servers.json → bench/out/dist/) ...');
buildServers();
const upstreams = new Upstreams();
try {
  const up = await upstreams.get(c.upstream);
  const { body } = formsOf(c, up.seeded);
  const sides = {
    floor: await startChild('floor', './floor.ts', floorEnvOf(c, up.baseUrl)),
    v1gate: await startChild('gateway', './gateway-proc.ts', await gatewayEnvOf(c, up.baseUrl, upstreams)),
  };
  try {
    const load = steadyLoadOf(c, body, rate);
    for (const child of Object.values(sides)) await load.warm(child, Number(values['warmup-calls']));

    const perCall: Record<keyof typeof sides, Map<string, number>> = { floor: new Map(), v1gate: new Map() };
    const cpu: Record<keyof typeof sides, number> = { floor: NaN, v1gate: NaN };
    for (const name of ['floor', 'v1gate'] as const) {
      const child = sides[name];
      const { error: notStarted } = (await child.ask('profile-start')) as { error?: string };
      if (notStarted !== undefined) throw new Error(`${name} could not start profiling: ${notStarted}`);
      const run = await load.steady(child, durationSec);
      const { file, error } = (await child.ask('profile-stop', 60_000)) as { file?: string; error?: string };
      if (file === undefined) throw new Error(`${name} wrote no profile: ${error}`);
      const problems = run.errors + run.timeouts + run.non2xx + run.envelopeErrors;
      if (problems > 0)
        throw new Error(`${name}: ${problems} problem answers under load (${run.firstEnvelopeError ?? 'transport errors'})`);
      cpu[name] = run.cpuUs;
      for (const [area, share] of busyShareByArea(readProfile(file))) perCall[name].set(area, share * run.cpuUs);
      console.log(`${name}: ${run.rps.toFixed(0)} calls/s, ${run.cpuUs.toFixed(0)} µs CPU per call; profile ${file}`);
    }

    const areas = [...new Set([...perCall.v1gate.keys(), ...perCall.floor.keys()])]
      .map((area) => ({ area, floor: perCall.floor.get(area) ?? 0, v1gate: perCall.v1gate.get(area) ?? 0 }))
      .filter((row) => Math.max(row.floor, row.v1gate) >= 0.5)
      .sort((a, b) => b.v1gate - a.v1gate || b.floor - a.floor);
    const us = (x: number) => x.toFixed(1);
    console.log(`
\`${c.v1Path}\` (${c.id}) at ${rate} calls/s, ${durationSec} s each side: CPU µs per call by area (areas under 0.5 µs on both sides left out)

| area | floor | v1gate | v1gate − floor |
|---|---|---|---|
${areas.map((row) => `| ${row.area} | ${us(row.floor)} | ${us(row.v1gate)} | ${row.v1gate - row.floor >= 0 ? '+' : ''}${us(row.v1gate - row.floor)} |`).join('\n')}
| **all** | **${us(cpu.floor)}** | **${us(cpu.v1gate)}** | **+${us(cpu.v1gate - cpu.floor)}** |`);

    const countLoad = steadyLoadOf(c, body, countRate);
    const counted = { floor: await countedWindow(sides.floor, countLoad), v1gate: await countedWindow(sides.v1gate, countLoad) };
    console.log(countsTable(counted, countRate));
  } finally {
    await Promise.all(Object.values(sides).map((child) => child.stop()));
  }
} finally {
  await upstreams.close();
}

interface Counted {
  syscalls: SyscallCounts | string;
  bytes: number;
  calls: number;
  /** Each area's share of the bytes allocated, from the window's sampling heap profile. */
  allocatedShares: Map<string, number>;
}

/** One window at the count rate: the heap bytes allocated, and the system calls when strace can count them. */
async function countedWindow(child: Child, load: ReturnType<typeof steadyLoadOf>): Promise<Counted> {
  const steady = () => load.steady(child, COUNT_WINDOW_SEC);
  await child.ask('alloc-start');
  let syscalls: SyscallCounts | string;
  let calls: number;
  try {
    const { result, counts } = await countSyscalls(child.proc.pid!, child.ready.port, steady);
    syscalls = counts;
    calls = result.total;
  } catch (error) {
    syscalls = `not counted: ${(error as Error).message}`;
    calls = (await steady()).total;
  }
  const { bytes, file } = (await child.ask('alloc-stop', 60_000)) as { bytes: number; file: string };
  console.log(`${child.name}: heap allocation profile ${file}`);
  const { head } = JSON.parse(readFileSync(file, 'utf8')) as { head: HeapProfileNode };
  return { syscalls, bytes, calls, allocatedShares: allocatedShareByArea(head) };
}

function countsTable(counted: Record<'floor' | 'v1gate', Counted>, rate: number): string {
  const per = (side: Counted, key: string) => (typeof side.syscalls === 'string' ? NaN : (side.syscalls.get(key) ?? 0) / side.calls);
  const keys = [counted.floor, counted.v1gate].flatMap((side) => (typeof side.syscalls === 'string' ? [] : [...side.syscalls.keys()]));
  const rows = [...new Set(keys)]
    .map((key) => ({ key, floor: per(counted.floor, key), v1gate: per(counted.v1gate, key) }))
    .filter((row) => Math.max(row.floor, row.v1gate) >= 0.05)
    .sort((a, b) => b.v1gate - a.v1gate || b.floor - a.floor);
  const total = (side: Counted) => rows.reduce((sum, row) => sum + (side === counted.floor ? row.floor : row.v1gate), 0);
  const n = (x: number) => (Number.isNaN(x) ? '–' : x.toFixed(2));
  const kb = (side: Counted) => (side.bytes / side.calls / 1024).toFixed(1);
  const notes = [counted.floor, counted.v1gate].flatMap((side) => (typeof side.syscalls === 'string' ? [side.syscalls] : []));
  return `
What a call costs besides time, at ${rate} calls/s over ${COUNT_WINDOW_SEC} s each side${notes.length ? ` (${[...new Set(notes)].join('; ')})` : ''}

| per call | floor | v1gate |
|---|---|---|
${rows.map((row) => `| ${row.key} | ${n(row.floor)} | ${n(row.v1gate)} |`).join('\n')}
| **system calls** | **${n(total(counted.floor))}** | **${n(total(counted.v1gate))}** |
| **heap KiB allocated** | **${kb(counted.floor)}** | **${kb(counted.v1gate)}** |

Heap KiB allocated per call by area (sampled; areas under 0.5 KiB on both sides left out)

| area | floor | v1gate |
|---|---|---|
${allocationRows(counted).join('\n')}`;
}

function allocationRows(counted: Record<'floor' | 'v1gate', Counted>): string[] {
  const kibOf = (side: Counted, area: string) => ((side.allocatedShares.get(area) ?? 0) * side.bytes) / side.calls / 1024;
  const areas = new Set([...counted.floor.allocatedShares.keys(), ...counted.v1gate.allocatedShares.keys()]);
  return [...areas]
    .map((area) => ({ area, floor: kibOf(counted.floor, area), v1gate: kibOf(counted.v1gate, area) }))
    .filter((row) => Math.max(row.floor, row.v1gate) >= 0.5)
    .sort((a, b) => b.v1gate - a.v1gate || b.floor - a.floor)
    .map((row) => `| ${row.area} | ${row.floor.toFixed(1)} | ${row.v1gate.toFixed(1)} |`);
}
