import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { quantileOfBuckets } from '../src/ops/metrics.js';
import { canonicalPath } from '../src/translators/kit/registry.js';
import { ALL_ENDPOINTS } from '../src/translators/endpoints.js';
import { buildCases, type BenchCase, type UpstreamKind } from './cases.js';
import { runLoad, type LoadResult } from './load.js';
import { REPO_ROOT, currentRuntime, startChild, type Child, type Runtime } from './procs.js';
import type { Seeded } from './seed.js';

/**
 * The benchmark harness (bench/run.ts is its command line). For each case: start the floor and the
 * gateway (each its own process) over the case's upstream (its own process), check one answer of
 * each, warm both up, then alternate load runs floor, gateway, floor, gateway ... so drift of the
 * machine hits both alike; then the same at half the floor's peak rate. Medians over the pairs.
 */

export const API_KEY = 'benchApiKey00000';
export const API_SECRET = 'benchApiSecret0000000000000';

export interface BenchOptions {
  pairs: number;
  durationSec: number;
  warmupSec: number;
  /**
   * Each side warms up until it has answered at least this many calls too (in runs of `warmupSec`,
   * at most MAX_WARMUP_SEC): V8 optimises a function after enough calls, not after enough seconds.
   */
  warmupCalls: number;
  /** Pairs at half the floor's peak rate (0: skip). */
  halfLoadPairs: number;
  connections: number;
  /** Most connections of the half-load runs (the paced generator opens them as requests overlap). */
  halfLoadConnections: number;
  /** Only these case ids (default: all). */
  only?: string[];
  /** Start the gateway with --cpu-prof into this directory. */
  cpuProfDir?: string;
  log?: (line: string) => void;
}

export interface Side {
  runs: LoadResult[];
  rps: number;
  p50: number;
  p99: number;
  /** CPU time (user + system) the server process spent per v1 call, µs: robust to other load on the machine. */
  cpuUs: number;
}

export interface CaseResult {
  id: string;
  title: string;
  v1Path: string;
  upstream: UpstreamKind;
  limiter: string;
  keepAlive: boolean;
  /** One endpoint family, every request its own ids (BenchCase.headline). */
  headline: boolean;
  /** What v1gate may share between the load's requests (BenchCase.shares). */
  shares: string;
  status: 'ok' | 'not served yet' | 'failed';
  note?: string;
  floor?: Side;
  gateway?: Side;
  ratio?: number;
  half?: {
    rate: number;
    floor: Side;
    gateway: Side;
    addedP99: number;
    addedP50: number;
    /** v1gate's own time per call over the half-load runs (v1gate_added_latency_seconds, scraped before and after each). */
    ownTime?: OwnTimeQuantiles;
  };
  v2CallsPerCall?: number;
  /** Calls each side answered while warming up (not measured). */
  warmedUp?: { floor: number; gateway: number };
  memory?: { before: NodeJS.MemoryUsage; after: NodeJS.MemoryUsage };
  /** Transport errors + timeouts + non-2xx + v1 error envelopes, over every run of the case. */
  problems: { floor: number; gateway: number; sample?: string };
}

export interface BenchReport {
  options: BenchOptions;
  machine: Machine;
  oneCallPath: string;
  cases: CaseResult[];
}

export interface Machine {
  node: string;
  cpu: string;
  cores: number;
  memGb: number;
  date: string;
  commit: string;
  /** 1-minute load average when the run started (other work on the machine skews every figure). */
  loadAvg: number;
  loadAvgEnd?: number;
  /** How every server process ran: compiled JavaScript (as `npm start`) or TypeScript under tsx. */
  runtime: Runtime;
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

type Run = LoadResult & { cpuUs: number };

/**
 * The longest warm-up of one side (s). A server's CPU per call falls over its first thousands of
 * calls while V8 compiles its hot functions, and a 2 s warm-up is a few hundred calls of a slow
 * case on a loaded box: the gateway's /meeting/create then still spent 17% of its CPU in the
 * optimising compiler (perf), against 3% after 10 000 calls, and the floor (a page of code) was
 * warm within ~3 000 calls. A warm-up counted in seconds measured part of that compile time on the
 * slower side, against the floor.
 */
const MAX_WARMUP_SEC = 30;

/** Load runs (`runOnce`) until the server has answered `minCalls` calls, or for MAX_WARMUP_SEC; at least one run. Returns the calls answered. */
export async function warmUp(runOnce: () => Promise<{ total: number }>, minCalls: number): Promise<number> {
  let calls = 0;
  const started = performance.now();
  do calls += (await runOnce()).total;
  while (calls < minCalls && performance.now() - started < MAX_WARMUP_SEC * 1000);
  return calls;
}

/**
 * v1gate's req/s over the floor's: the median of each pair's own ratio. A pair's two runs are
 * seconds apart and the pairs a minute, so the machine's drift cancels within a pair; the ratio of
 * the two medians mixed one pair's floor with another's gateway.
 */
export function pairedRatio(floorRuns: readonly { rps: number }[], gatewayRuns: readonly { rps: number }[]): number {
  return median(gatewayRuns.map((g, i) => g.rps / floorRuns[i]!.rps));
}

function side(runs: Run[]): Side {
  return {
    runs,
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    cpuUs: median(runs.map((r) => r.cpuUs)),
  };
}

/** One load run against `child`, with the CPU time the child spent on it. */
export async function measured(child: Child, run: () => Promise<LoadResult>): Promise<Run> {
  const before = (await child.ask('cpu')).usage as NodeJS.CpuUsage;
  const result = await run();
  const after = (await child.ask('cpu')).usage as NodeJS.CpuUsage;
  const spent = after.user - before.user + (after.system - before.system);
  return { ...result, cpuUs: result.total > 0 ? spent / result.total : NaN };
}

export function problemsOf(runs: LoadResult[]): number {
  return runs.reduce((n, r) => n + r.errors + r.timeouts + r.non2xx + r.envelopeErrors, 0);
}

export function machine(): Machine {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'mappings'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    if (dirty) commit += ' (+ uncommitted changes in src/mappings)';
  } catch {
    // not a git checkout
  }
  return {
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memGb: Math.round(totalmem() / 2 ** 30),
    date: new Date().toISOString(),
    commit,
    loadAvg: loadavg()[0] ?? 0,
    runtime: currentRuntime(),
  };
}

export class Upstreams {
  private readonly started = new Map<UpstreamKind, { child: Child; baseUrl: string; seeded: Seeded }>();
  private redis: { url: string; close(): Promise<void> } | undefined;

  async get(kind: UpstreamKind) {
    let up = this.started.get(kind);
    if (!up) {
      const env = { SANDBOX_API_KEY: API_KEY, SANDBOX_API_SECRET: API_SECRET };
      const child = await startChild(`${kind} upstream`, kind === 'fixed' ? './fixed-upstream.ts' : './sandbox-upstream.ts', env);
      const seeded: Seeded =
        kind === 'fixed'
          ? (JSON.parse(readFileSync(new URL('./fixtures/v2-answers.json', import.meta.url), 'utf8')) as { seeded: Seeded }).seeded
          : (child.ready.seeded as Seeded);
      up = { child, baseUrl: `http://127.0.0.1:${child.ready.port}/v2`, seeded };
      this.started.set(kind, up);
    }
    return up;
  }

  async redisUrl(): Promise<string> {
    if (!this.redis) {
      const { startRedis } = await import('../test/support/redis.js');
      this.redis = await startRedis();
    }
    return this.redis.url;
  }

  async close(): Promise<void> {
    for (const up of this.started.values()) await up.child.stop();
    this.started.clear();
    await this.redis?.close();
    this.redis = undefined;
  }
}

/** A fresh form for every request: the case's fields with its distinct ones for request n. */
export function distinctForms(fields: Record<string, string>, distinct: (n: number) => Record<string, string>): () => string {
  let n = 0;
  return () => new URLSearchParams({ ...fields, ...distinct(n++) }).toString();
}

async function checkOnce(url: string, path: string, body: string): Promise<{ text: string; v2Calls: string | null; error?: string }> {
  const response = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  const text = await response.text();
  const isError = response.status !== 200 || text.startsWith('{"error"') || text.includes('<response><error>');
  return {
    text,
    v2Calls: response.headers.get('x-v2-calls'),
    ...(isError ? { error: `HTTP ${response.status}: ${text.slice(0, 300)}` } : {}),
  };
}

export async function runBench(options: BenchOptions): Promise<BenchReport> {
  const log = options.log ?? (() => {});
  const served = new Set(ALL_ENDPOINTS.flatMap((e) => [e.path, ...(e.aliases ?? [])].map(canonicalPath)));
  const isServed = (v1Path: string) => served.has(canonicalPath(v1Path));
  const cases = buildCases(isServed).filter((c) => !options.only || options.only.includes(c.id));
  const oneCallPath = isServed('/v1/meeting/get') ? '/v1/meeting/get' : '/v1/user/checkemail';
  const upstreams = new Upstreams();
  const results: CaseResult[] = [];
  const startMachine = machine();
  try {
    for (const c of cases) {
      const base = { ...caseIdentity(c), problems: { floor: 0, gateway: 0 } };
      if (!isServed(c.v1Path)) {
        log(`${c.id}: ${c.v1Path} not served yet`);
        results.push({ ...base, status: 'not served yet' });
        continue;
      }
      log(`${c.id}: ${c.title}`);
      try {
        results.push(await runCase(c, options, upstreams, log));
      } catch (error) {
        log(`${c.id}: FAILED ${(error as Error).message}`);
        results.push({ ...base, status: 'failed', note: (error as Error).message.split('\n')[0] });
      }
    }
  } finally {
    await upstreams.close();
  }
  return { options, machine: { ...startMachine, loadAvgEnd: loadavg()[0] ?? 0 }, oneCallPath, cases: results };
}

/** What a case's result repeats of the case, whatever became of it. */
const caseIdentity = ({ id, title, v1Path, upstream, limiter, keepAlive, headline, shares }: BenchCase) => ({
  id,
  title,
  v1Path,
  upstream,
  limiter,
  keepAlive,
  headline: headline ?? false,
  shares,
});

export interface OwnTimeQuantiles {
  calls: number;
  p50Ms: number | undefined;
  p99Ms: number | undefined;
}

/** The gateway's v1gate_added_latency_seconds buckets, every endpoint's summed (le → cumulative count), from its /metrics. */
export async function ownTimeBuckets(url: string): Promise<Map<number, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const buckets = new Map<number, number>();
  for (const m of text.matchAll(/^v1gate_added_latency_seconds_bucket\{[^}]*le="([^"]+)"[^}]*\} (\S+)$/gm)) {
    const le = m[1] === '+Inf' ? Infinity : Number(m[1]);
    buckets.set(le, (buckets.get(le) ?? 0) + Number(m[2]));
  }
  return buckets;
}

/** The calls and p50/p99 (ms, within the histogram's buckets) of what was observed between two scrapes, summed over runs. */
export function ownTimeOf(deltas: readonly { before: Map<number, number>; after: Map<number, number> }[]): OwnTimeQuantiles {
  const total = new Map<number, number>();
  for (const { before, after } of deltas)
    for (const [le, count] of after) total.set(le, (total.get(le) ?? 0) + count - (before.get(le) ?? 0));
  const buckets = [...total].map(([le, count]) => ({ le, count }));
  const seconds = (q: number) => quantileOfBuckets(q, buckets);
  const ms = (s: number | undefined) => (s === undefined ? undefined : s * 1000);
  return { calls: total.get(Infinity) ?? 0, p50Ms: ms(seconds(0.5)), p99Ms: ms(seconds(0.99)) };
}

/**
 * The load of the tools that compare two servers at one steady rate (bench/builds.ts,
 * bench/profile.ts): the case's calls from 32 connections, each run with the server's CPU. `warm`
 * runs flat out until the server has answered `minCalls`; `steady` sends `rate` calls a second.
 */
export function steadyLoadOf(c: BenchCase, body: string | (() => string), rate: number) {
  const run = (child: Child, durationSec: number, overallRate?: number) =>
    measured(child, () =>
      runLoad({
        url: `http://127.0.0.1:${child.ready.port}`,
        path: c.v1Path,
        body,
        connections: 32,
        durationSec,
        ...(overallRate ? { overallRate } : {}),
      }),
    );
  return {
    warm: (child: Child, minCalls: number) => warmUp(() => run(child, 2), minCalls),
    steady: (child: Child, durationSec: number) => run(child, durationSec, rate),
  };
}

type SteadyLoad = ReturnType<typeof steadyLoadOf>;
type SteadyRun = Awaited<ReturnType<SteadyLoad['steady']>>;

/**
 * Two servers under one steady load, alternated (A B, then B A, and so on) so that the machine's
 * drift hits both alike: each side's CPU µs per call run by run, every problem (transport errors,
 * timeouts, non-2xx, v1 error envelopes) counted, and the slowest run's req/s (below the rate, a
 * side saturated). `onRun` sees each run as it ends.
 */
export async function alternatedRuns<K extends string>(
  load: SteadyLoad,
  sides: Record<K, Child>,
  order: readonly [K, K],
  options: { rounds: number; durationSec: number; onRun?: (side: K, run: SteadyRun) => void },
): Promise<{ cpu: Record<K, number[]>; problems: number; slowestRps: number }> {
  const cpu = { [order[0]]: [], [order[1]]: [] } as unknown as Record<K, number[]>;
  let problems = 0;
  let slowestRps = Infinity;
  for (let round = 0; round < options.rounds; round++) {
    for (const side of round % 2 === 0 ? order : ([order[1], order[0]] as const)) {
      const run = await load.steady(sides[side], options.durationSec);
      cpu[side].push(run.cpuUs);
      problems += run.errors + run.timeouts + run.non2xx + run.envelopeErrors;
      slowestRps = Math.min(slowestRps, run.rps);
      options.onRun?.(side, run);
    }
  }
  return { cpu, problems, slowestRps };
}

/** The floor's settings for a case: the same upstream, and the same keep-alive policy as the gateway's. */
export function floorEnvOf(c: BenchCase, v2BaseUrl: string): Record<string, string> {
  return { PORT: '0', V2_BASE_URL: v2BaseUrl, FLOOR_KEEP_ALIVE: c.keepAlive ? 'on' : 'off' };
}

/** The gateway's settings for a case, over the upstream at `v2BaseUrl`. */
export async function gatewayEnvOf(c: BenchCase, v2BaseUrl: string, upstreams: Upstreams): Promise<Record<string, string>> {
  const env: Record<string, string> = {
    PORT: '0',
    V2_BASE_URL: v2BaseUrl,
    V1_KEEP_ALIVE: c.keepAlive ? 'on' : 'off',
    V1_RATE_LIMITS: c.limiter === 'off' ? 'off' : 'on',
    V2_RATE_LIMITS: c.limiter === 'off' ? 'off' : 'on',
    // The limiters do all their work (buckets, Lua scripts, queues) but never refuse: the
    // benchmark measures their cost, not the spec's 10 requests/s.
    RATE_LIMIT_SCALE: c.limiter === 'off' ? '1' : '1000000',
    ...c.env,
  };
  if (c.limiter === 'redis') env.REDIS_URL = await upstreams.redisUrl();
  return env;
}

/** A case's form (its one check call), and what the load posts: that form again and again, or each request its own. */
export function formsOf(c: BenchCase, seeded: Seeded): { form: string; body: string | (() => string) } {
  const fields = { api_key: API_KEY, api_secret: API_SECRET, ...c.params(seeded) };
  const form = new URLSearchParams(fields).toString();
  return { form, body: c.distinct ? distinctForms(fields, c.distinct) : form };
}

async function runCase(c: BenchCase, options: BenchOptions, upstreams: Upstreams, log: (line: string) => void): Promise<CaseResult> {
  const up = await upstreams.get(c.upstream);
  const gatewayEnv = await gatewayEnvOf(c, up.baseUrl, upstreams);
  const floorEnv = floorEnvOf(c, up.baseUrl);
  const profArgs = options.cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfDir] : [];
  const [floor, gateway] = await Promise.all([
    startChild('floor', './floor.ts', floorEnv),
    startChild('gateway', './gateway-proc.ts', gatewayEnv, profArgs),
  ]);
  try {
    const { form, body } = formsOf(c, up.seeded);
    const floorUrl = `http://127.0.0.1:${floor.ready.port}`;
    const gatewayUrl = `http://127.0.0.1:${gateway.ready.port}`;
    const [floorCheck, gatewayCheck] = [await checkOnce(floorUrl, c.v1Path, form), await checkOnce(gatewayUrl, c.v1Path, form)];
    if (floorCheck.error) throw new Error(`the floor answered an error: ${floorCheck.error}`);
    if (gatewayCheck.error) throw new Error(`the gateway answered an error: ${gatewayCheck.error}`);

    const urlOf = (child: Child) => (child === floor ? floorUrl : gatewayUrl);
    const load = (child: Child, durationSec: number, overallRate?: number, connections = options.connections) =>
      measured(child, () =>
        runLoad({ url: urlOf(child), path: c.v1Path, body, connections, durationSec, ...(overallRate ? { overallRate } : {}) }),
      );
    // Warm-up (JIT, pools, buckets); not measured.
    const warmup = (child: Child) => warmUp(() => load(child, options.warmupSec), options.warmupCalls);
    const warmedUp = { floor: await warmup(floor), gateway: await warmup(gateway) };
    log(`  warm-up: floor ${warmedUp.floor} calls, v1gate ${warmedUp.gateway} calls`);
    const before = (await gateway.ask('memory')).usage as NodeJS.MemoryUsage;

    const floorRuns: Run[] = [];
    const gatewayRuns: Run[] = [];
    for (let i = 0; i < options.pairs; i++) {
      floorRuns.push(await load(floor, options.durationSec));
      gatewayRuns.push(await load(gateway, options.durationSec));
      const [f, g] = [floorRuns.at(-1)!, gatewayRuns.at(-1)!];
      log(
        `  pair ${i + 1}: floor ${f.rps.toFixed(0)} req/s ${f.cpuUs.toFixed(0)} µs CPU/call, v1gate ${g.rps.toFixed(0)} req/s ${g.cpuUs.toFixed(0)} µs CPU/call`,
      );
    }
    const floorSide = side(floorRuns);
    const gatewaySide = side(gatewayRuns);

    let half: CaseResult['half'];
    const halfFloor: Run[] = [];
    const halfGateway: Run[] = [];
    if (c.halfLoad && options.halfLoadPairs > 0) {
      const rate = floorSide.rps / 2;
      const scrapes: { before: Map<number, number>; after: Map<number, number> }[] = [];
      for (let i = 0; i < options.halfLoadPairs; i++) {
        halfFloor.push(await load(floor, options.durationSec, rate, options.halfLoadConnections));
        const before = await ownTimeBuckets(gatewayUrl);
        halfGateway.push(await load(gateway, options.durationSec, rate, options.halfLoadConnections));
        scrapes.push({ before, after: await ownTimeBuckets(gatewayUrl) });
      }
      const hf = side(halfFloor);
      const hg = side(halfGateway);
      // Each pair's own difference (the two runs of a pair share the machine's state), then their median.
      const paired = (of: (r: Run) => number) => median(halfGateway.map((g, i) => of(g) - of(halfFloor[i]!)));
      const ownTime = ownTimeOf(scrapes);
      half = { rate, floor: hf, gateway: hg, addedP99: paired((r) => r.p99), addedP50: paired((r) => r.p50), ownTime };
      log(
        `  half load ${rate.toFixed(0)} req/s: p99 floor ${hf.p99.toFixed(2)} ms, v1gate ${hg.p99.toFixed(2)} ms; v1gate's own time p50 ${ownTime.p50Ms?.toFixed(3)} ms, p99 ${ownTime.p99Ms?.toFixed(3)} ms`,
      );
    }
    const after = (await gateway.ask('memory')).usage as NodeJS.MemoryUsage;
    const allFloor = [...floorRuns, ...halfFloor];
    const allGateway = [...gatewayRuns, ...halfGateway];
    const calls = allGateway.map((r) => r.v2CallsPerCall).filter((x): x is number => x !== undefined);
    const sample =
      allGateway.find((r) => r.firstEnvelopeError)?.firstEnvelopeError ?? allFloor.find((r) => r.firstEnvelopeError)?.firstEnvelopeError;
    return {
      ...caseIdentity(c),
      status: 'ok',
      floor: floorSide,
      gateway: gatewaySide,
      ratio: pairedRatio(floorRuns, gatewayRuns),
      ...(half ? { half } : {}),
      v2CallsPerCall: calls.length ? calls.reduce((a, b) => a + b, 0) / calls.length : Number(gatewayCheck.v2Calls),
      warmedUp,
      memory: { before, after },
      problems: { floor: problemsOf(allFloor), gateway: problemsOf(allGateway), ...(sample ? { sample } : {}) },
    };
  } finally {
    await Promise.all([floor.stop(), gateway.stop()]);
  }
}
