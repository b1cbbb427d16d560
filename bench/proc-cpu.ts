import { readFileSync } from 'node:fs';
import type { CpuSample } from './cpu-ceiling.js';

/**
 * CPU time as Linux counts it, for the benchmarks that run their servers as child processes: one
 * process's (/proc/<pid>/stat), the machine's (/proc/stat), and a meter that reads both around a
 * load run so the gateway's share can be told from everything else's (cpu-ceiling.ts).
 */

const CLOCK_TICKS = 100; // USER_HZ on Linux
const US_PER_TICK = 1e6 / CLOCK_TICKS;

/**
 * user+system CPU µs of one process, from /proc/<pid>/stat (fields 14 and 15), or of one of its
 * threads (/proc/<pid>/task/<tid>/stat); 0 once it has exited.
 */
export function processCpuUs(pid: number, tid?: number): number {
  try {
    const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * US_PER_TICK;
  } catch {
    return 0;
  }
}

/** The processes `pid` started (a gateway's cluster workers, the bench's servers), from /proc. */
export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

interface MachineCpu {
  busyUs: number;
  idleUs: number;
  cores: number;
}

/**
 * Every core's time since boot, from /proc/stat's `cpu` line (user nice system idle iowait irq
 * softirq steal; guest time is already inside user): idle and iowait are idle, the rest busy.
 */
export function machineCpu(): MachineCpu {
  const stat = readFileSync('/proc/stat', 'utf8');
  const ticks = /^cpu\s+(.*)$/m.exec(stat)![1]!.trim().split(/\s+/).slice(0, 8).map(Number);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = ticks as [number, number, number, number, number, number, number, number];
  return {
    busyUs: (user + nice + system + irq + softirq + steal) * US_PER_TICK,
    idleUs: (idle + iowait) * US_PER_TICK,
    cores: (stat.match(/^cpu\d+ /gm) ?? []).length,
  };
}

/**
 * Starts counting now: the gateway's processes, the bench's own (the load generator runs in it),
 * its other children (the upstreams) and the machine. `stop(calls)` gives what each spent since,
 * and the gateway's process by process (in the order of `gatewayPids`).
 */
export function startCpuMeter(gatewayPids: readonly number[]): {
  stop(calls: number): { sample: CpuSample; gatewayUsByProcess: number[]; gatewayMainThreadsUs: number };
} {
  const upstreamPids = childrenOf(process.pid).filter((pid) => !gatewayPids.includes(pid));
  const sum = (pids: readonly number[]) => pids.reduce((us, pid) => us + processCpuUs(pid), 0);
  const machineBefore = machineCpu();
  const gatewayBefore = gatewayPids.map((pid) => processCpuUs(pid));
  // A Node process's JavaScript runs on its main thread (tid = pid), at most one core's worth; its
  // collector's and compiler's helper threads can use another core beside it.
  const mainThreads = () => gatewayPids.reduce((us, pid) => us + processCpuUs(pid, pid), 0);
  const mainThreadsBefore = mainThreads();
  const upstreamBefore = sum(upstreamPids);
  const generatorBefore = process.cpuUsage();
  return {
    stop(calls) {
      const generator = process.cpuUsage(generatorBefore);
      const upstreamUs = sum(upstreamPids) - upstreamBefore;
      // The main threads are read inside the processes' span (after them at the start, before them
      // here), so their time is never more than the processes' own.
      const gatewayMainThreadsUs = mainThreads() - mainThreadsBefore;
      const gatewayUsByProcess = gatewayPids.map((pid, i) => processCpuUs(pid) - gatewayBefore[i]!);
      const machine = machineCpu();
      const sample: CpuSample = {
        calls,
        cores: machine.cores,
        gatewayUs: gatewayUsByProcess.reduce((a, b) => a + b, 0),
        generatorUs: generator.user + generator.system,
        upstreamUs,
        machineBusyUs: machine.busyUs - machineBefore.busyUs,
        machineIdleUs: machine.idleUs - machineBefore.idleUs,
      };
      return { sample, gatewayUsByProcess, gatewayMainThreadsUs };
    },
  };
}
