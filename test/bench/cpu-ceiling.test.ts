import { describe, expect, it } from 'vitest';
import { ceilingOf, cpuShareOf, type CpuSample } from '../../bench/cpu-ceiling.js';

/**
 * The arithmetic bench:workers prints beside its measured ratio: a run's CPU per call split into
 * the gateway's and the rest's, and the most N processes could serve over one on the machine's
 * cores at those costs. Samples in, figures out; nothing here reads /proc or a clock.
 */
describe('the ceiling on N gateway processes over one', () => {
  it('is 2g/(g+o) on two cores, so 1.8x needs the rest at most a ninth of the gateway', () => {
    expect(ceilingOf(2, 2, 425, 0)).toBe(2);
    expect(ceilingOf(2, 2, 450, 50)).toBeCloseTo(1.8, 12);
    expect(ceilingOf(2, 2, 425, 425 / 9 + 1)).toBeLessThan(1.8);
    // The run: 425 µs the gateway's, and a rest as large again leaves no gain at all.
    expect(ceilingOf(2, 2, 425, 425)).toBe(1);
  });

  it('is 1 when the rest costs more than the gateway: one process cannot have a core of its own either', () => {
    expect(ceilingOf(2, 2, 200, 600)).toBe(1);
  });

  it('is capped by the cores, and by the processes', () => {
    // Four processes on two cores with nothing else: two cores' worth.
    expect(ceilingOf(4, 2, 300, 0)).toBe(2);
    expect(ceilingOf(4, 2, 300, 100)).toBeCloseTo(1.5, 12);
    // Two processes on eight cores with a light rest: each has its core.
    expect(ceilingOf(2, 8, 300, 100)).toBe(2);
    // Eight cores, eight processes, a rest as large as the gateway: four cores' worth of gateway.
    expect(ceilingOf(8, 8, 300, 300)).toBe(4);
    expect(ceilingOf(1, 2, 300, 100)).toBe(1);
  });

  it("is lower by m/g when one process is capped by its main thread's m µs a call", () => {
    // Its helper threads spend the other 10%: one process serves 1/m, more than 1/g.
    expect(ceilingOf(2, 2, 500, 0, 450)).toBeCloseTo(1.8, 12);
    expect(ceilingOf(2, 2, 450, 50, 405)).toBeCloseTo(1.62, 12);
    expect(ceilingOf(2, 2, 450, 50, 450)).toBeCloseTo(1.8, 12);
    // Four on two cores with nothing else: the cores allow 1.8 one-process rates, not 2.
    expect(ceilingOf(4, 2, 500, 0, 450)).toBeCloseTo(1.8, 12);
    // A rest so large that one process cannot keep its main thread busy either.
    expect(ceilingOf(2, 2, 500, 600, 450)).toBe(1);
  });

  it('is NaN without a gateway cost or a count to divide by, or with a main thread above its process', () => {
    expect(ceilingOf(2, 2, 300, 100, 301)).toBeNaN();
    expect(ceilingOf(2, 2, 300, 100, 0)).toBeNaN();
    expect(ceilingOf(2, 2, 0, 100)).toBeNaN();
    expect(ceilingOf(2, 2, Number.NaN, 100)).toBeNaN();
    expect(ceilingOf(2, 2, 300, Number.NaN)).toBeNaN();
    expect(ceilingOf(0, 2, 300, 100)).toBeNaN();
  });
});

describe("a run's CPU per call", () => {
  const sample: CpuSample = {
    calls: 10_000,
    cores: 2,
    gatewayUs: 4_000_000,
    generatorUs: 1_500_000,
    upstreamUs: 500_000,
    machineBusyUs: 8_000_000,
    machineIdleUs: 2_000_000,
  };

  it('splits the machine into the gateway, the generator, the upstream and the other work', () => {
    expect(cpuShareOf(sample)).toEqual({
      gatewayUsPerCall: 400,
      generatorUsPerCall: 150,
      upstreamUsPerCall: 50,
      otherUsPerCall: 200,
      restUsPerCall: 400,
      idleShare: 0.2,
    });
  });

  it('never counts other work below zero when the processes read a tick more than the machine', () => {
    const share = cpuShareOf({ ...sample, machineBusyUs: 5_990_000, machineIdleUs: 4_010_000 });
    expect(share.otherUsPerCall).toBe(0);
    expect(share.restUsPerCall).toBe(200);
  });

  it('gives the ceiling from the shares: a rest as large as the gateway leaves 1x, one half its size 4/3x', () => {
    const share = cpuShareOf(sample);
    expect(ceilingOf(2, sample.cores, share.gatewayUsPerCall, share.restUsPerCall)).toBe(1);
    const quiet = cpuShareOf({ ...sample, machineBusyUs: 6_000_000 });
    expect(quiet.restUsPerCall).toBe(200);
    expect(ceilingOf(2, sample.cores, quiet.gatewayUsPerCall, quiet.restUsPerCall)).toBeCloseTo(4 / 3, 12);
  });
});
