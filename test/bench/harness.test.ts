import { describe, expect, it } from 'vitest';
import { pairedRatio, runBench } from '../../bench/harness.js';
import { buildServers } from '../../bench/procs.js';
import type { BenchReport, CaseResult } from '../../bench/harness.js';
import { renderTable, targetLines } from '../../bench/report.js';

/**
 * The benchmark still works end to end: floor, gateway and fixed upstream each in its own process,
 * one short A/B pair on the single-call case, numbers out, a table rendered. No speed is asserted
 * (machines are shared and noisy); only that it measured, and that every answer was a real answer.
 */
describe('bench harness', () => {
  it('runs one case side by side and produces figures', { timeout: 120_000 }, async () => {
    // As `npm run bench` does: compile the server processes first (a fresh clone has no bench/out/).
    buildServers();
    const report = await runBench({
      pairs: 1,
      durationSec: 1,
      warmupSec: 0.2,
      warmupCalls: 1500,
      halfLoadPairs: 1,
      connections: 4,
      halfLoadConnections: 2,
      only: ['checkemail'],
    });
    expect(report.cases).toHaveLength(1);
    const c = report.cases[0]!;
    expect(c.status, c.note).toBe('ok');
    for (const side of [c.floor!, c.gateway!, c.half!.floor, c.half!.gateway]) {
      expect(side.rps).toBeGreaterThan(0);
      expect(Number.isFinite(side.p50)).toBe(true);
      expect(Number.isFinite(side.p99)).toBe(true);
    }
    expect(c.ratio).toBeGreaterThan(0);
    // One v2 call each at most: the load's identical concurrent calls share their GETs (coalescing).
    expect(c.v2CallsPerCall).toBeGreaterThan(0);
    expect(c.v2CallsPerCall).toBeLessThanOrEqual(1);
    expect(c.problems).toEqual({ floor: 0, gateway: 0 });
    // Each side warmed up until it had answered the calls asked for: several of its 0.2 s runs (one answers a few hundred).
    expect(c.warmedUp!.floor).toBeGreaterThanOrEqual(1500);
    expect(c.warmedUp!.gateway).toBeGreaterThanOrEqual(1500);
    expect(c.memory!.after.heapUsed).toBeGreaterThan(0);
    for (const side of [c.floor!, c.gateway!, c.half!.floor, c.half!.gateway]) expect(side.cpuUs).toBeGreaterThan(0);
    // v1gate's own time at half load, read from its /metrics before and after: every call answered there counted.
    expect(c.half!.ownTime!.calls).toBeGreaterThanOrEqual(c.half!.gateway.runs.length);
    expect(c.half!.ownTime!.p99Ms).toBeGreaterThan(0);
    const table = renderTable(report, 'test').split('\n');
    const row = table.find((line) => line.startsWith('| checkemail |'));
    const head = table.find((line) => line.startsWith('| case |'));
    expect(row).toBeDefined();
    // Every figure under its own heading: as many cells as the header has.
    expect(row!.split(' | ')).toHaveLength(head!.split(' | ').length);
  });
});

describe('paired ratio', () => {
  it("is the median of each pair's own ratio, not the ratio of the two sides' medians", () => {
    // The machine slowed from pair to pair: pairs 1 and 3 say 0.8, the sides' medians (5000, 2500) would say 0.5.
    const floor = [{ rps: 6000 }, { rps: 5000 }, { rps: 3000 }];
    const gateway = [{ rps: 4800 }, { rps: 2400 }, { rps: 2400 }];
    expect(pairedRatio(floor, gateway)).toBeCloseTo(0.8);
  });
});

describe('bench targets', () => {
  const side = (rps: number, cpuUs: number) => ({ runs: [], rps, p50: 1, p99: 2, cpuUs });
  const result = (id: string, floorCpu: number, gatewayCpu: number): CaseResult => ({
    id,
    title: id,
    v1Path: '/v1/meeting/get',
    upstream: 'fixed',
    limiter: 'off',
    keepAlive: true,
    headline: false,
    shares: 'nothing',
    status: 'ok',
    floor: side(1000, floorCpu),
    gateway: side(900, gatewayCpu),
    ratio: 0.9,
    problems: { floor: 0, gateway: 0 },
  });
  const linesFor = (cases: CaseResult[]) =>
    targetLines({ options: {} as BenchReport['options'], machine: {} as BenchReport['machine'], oneCallPath: '/v1/meeting/get', cases });

  it("judges XML by its CPU per call against JSON's, and shows the floors' drift between the two cases", () => {
    const met = linesFor([result('meeting-get', 100, 150), result('xml', 110, 170)]).find((l) => l.includes('XML'));
    expect(met).toContain('1.13x (1.03x against each case');
    expect(met).toMatch(/— MET$/);
    const missed = linesFor([result('meeting-get', 100, 150), result('xml', 100, 200)]).find((l) => l.includes('XML'));
    expect(missed).toMatch(/1\.33x .*— MISSED$/);
  });

  it("gives the half-load p99 target no verdict when the floor's own p99 there is longer than the difference it is about", () => {
    const withHalf = (floorP99: number, gatewayP99: number): CaseResult => ({
      ...result('meeting-get', 100, 150),
      half: {
        rate: 2000,
        floor: { ...side(2000, 100), p99: floorP99 },
        gateway: { ...side(2000, 150), p99: gatewayP99 },
        addedP99: gatewayP99 - floorP99,
        addedP50: 0,
      },
    });
    const line = (c: CaseResult) => linesFor([c]).find((l) => l.includes('p99 added'))!;
    expect(line(withHalf(1.5, 2.5))).toMatch(/1\.00 ms at 2,000 req\/s — MET$/);
    expect(line(withHalf(1.5, 4))).toMatch(/— MISSED$/);
    expect(line(withHalf(35, 20))).toMatch(/not measurable here: the floor's own p99 at half load was 35\.00 ms/);
  });
});
