/**
 * What a machine's cores leave N gateway processes to gain over one, from the CPU a run spent.
 *
 * Each call costs the gateway g µs of CPU and everything else on the machine o µs: the load
 * generator, the upstream, and whatever else the machine ran meanwhile, divided by the same calls.
 * One process can use one core at most, so it serves at most 1/g calls a second; and all the cores
 * together serve at most C/(g+o), since each call needs both shares. N processes serve at most
 * min(N/g, C/(g+o)), one at most min(1/g, C/(g+o)), and the ratio of the two is the ceiling on
 * "× one process": with N = C = 2 it is 2g/(g+o), so 1.8x needs o ≤ g/9. A measured ratio well
 * below its ceiling is the gateway's (its processes did not use the cores they had); near it, the
 * machine's. Pure arithmetic, so it can be tested (test/bench/cpu-ceiling.test.ts).
 *
 * Sharper, when the gateway's main threads are counted apart: a Node process runs its JavaScript on
 * one thread, while its collector's and compiler's helper threads can use another core beside it.
 * What caps one process is then its main thread's m µs a call (m ≤ g): one serves at most 1/m, and
 * the ceiling is min(N, C·m/(g+o)) ÷ min(1, C·m/(g+o)), lower than with g by m/g.
 *
 * The model holds for work that grows with the calls: the generator's and the upstream's. Other
 * processes' work does not; it takes the share of the cores the scheduler gives it, and N gateway
 * processes win a larger share back from it than one does. So when `other` is large a measured
 * ratio can exceed the ceiling taken with it, and the one taken without it (generator and upstream
 * alone) is what a quiet machine would allow.
 */

/** CPU spent over one load run, in µs summed over every core, and the calls answered in it. */
export interface CpuSample {
  calls: number;
  /** Cores of the machine (/proc/stat's per-CPU lines). */
  cores: number;
  /** Every gateway process (the primary and its workers). */
  gatewayUs: number;
  /** The load generator: the bench's own process, where autocannon runs. */
  generatorUs: number;
  /** The bench's other child processes: the upstream (and redis-server with the Redis limiter). */
  upstreamUs: number;
  /** The machine's busy time over the run (/proc/stat: all but idle and iowait), every process's. */
  machineBusyUs: number;
  /** The machine's idle time over the run (idle and iowait). */
  machineIdleUs: number;
}

/** A run's CPU per call, the gateway's and the rest's, and the machine's idle share. */
export interface CpuShare {
  gatewayUsPerCall: number;
  generatorUsPerCall: number;
  upstreamUsPerCall: number;
  /**
   * Busy time no measured process accounts for: other processes' work (foreign load), the
   * kernel's work outside them, steal. Never below 0: the per-process figures are read in 10 ms
   * ticks, so on an otherwise idle machine their sum can overshoot the machine's by a tick or two.
   */
  otherUsPerCall: number;
  /** Everything that is not the gateway: generator + upstream + other (o). */
  restUsPerCall: number;
  /** Of all the cores' time over the run, the share no one used (0–1). */
  idleShare: number;
}

export function cpuShareOf(sample: CpuSample): CpuShare {
  const perCall = (us: number) => us / sample.calls;
  const other = Math.max(0, sample.machineBusyUs - sample.gatewayUs - sample.generatorUs - sample.upstreamUs);
  const total = sample.machineBusyUs + sample.machineIdleUs;
  return {
    gatewayUsPerCall: perCall(sample.gatewayUs),
    generatorUsPerCall: perCall(sample.generatorUs),
    upstreamUsPerCall: perCall(sample.upstreamUs),
    otherUsPerCall: perCall(other),
    restUsPerCall: perCall(sample.generatorUs + sample.upstreamUs + other),
    idleShare: total > 0 ? sample.machineIdleUs / total : NaN,
  };
}

/**
 * The most `workers` gateway processes can serve over one on `cores` cores, when each call costs the
 * gateway `gatewayUsPerCall` (g) and the rest of the machine `restUsPerCall` (o), and one process
 * can serve at most one call per `mainThreadUsPerCall` (m, default g): min(N, C·m/(g+o)) ÷
 * min(1, C·m/(g+o)). NaN without costs to divide by, or with m above g.
 */
export function ceilingOf(
  workers: number,
  cores: number,
  gatewayUsPerCall: number,
  restUsPerCall: number,
  mainThreadUsPerCall = gatewayUsPerCall,
): number {
  const valid = mainThreadUsPerCall > 0 && mainThreadUsPerCall <= gatewayUsPerCall && restUsPerCall >= 0 && workers >= 1 && cores >= 1;
  if (!valid) return NaN;
  // Calls a second the cores allow, in units of what one process alone can serve (1/m).
  const coresAllow = (cores * mainThreadUsPerCall) / (gatewayUsPerCall + restUsPerCall);
  return Math.min(workers, coresAllow) / Math.min(1, coresAllow);
}
