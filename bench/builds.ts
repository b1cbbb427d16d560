import { parseArgs } from 'node:util';
import { buildRevision } from './base-build.js';
import { buildCases } from './cases.js';
import { alternatedRuns, formsOf, gatewayEnvOf, median, steadyLoadOf, Upstreams } from './harness.js';
import { buildServers, REPO_ROOT, startProcess, type Child } from './procs.js';

/**
 * `npm run bench:builds -- --base <git revision>`: this checkout's gateway against the gateway of
 * another revision, side by side in one run, over one fixed upstream. What a change to the hot path
 * buys, measured where the req/s ratio against the floor cannot show it: on this shared 2-core
 * machine two runs of the same build differ by up to ±15% in req/s, and a 3% gain drowns in that.
 *
 * Both gateways serve the same steady load (open loop, bench/paced-load.ts), so neither is
 * saturated and the load generator does the same work for both; the figure is the CPU each gateway
 * process spent per call, in alternated runs (A B, B A, ...). Two runs of the same build agree
 * within ~2% this way.
 *
 *   --base REV        the revision to compare with (default HEAD: the working tree against the last commit)
 *   --cases a,b       case ids of bench/cases.ts over the fixed upstream (default meeting-get,checkemail-distinct)
 *   --rate N          calls per second sent to each gateway (default 2500)
 *   --rounds N        alternated runs per gateway and case (default 6)
 *   --duration S      seconds per run (default 4)
 *   --warmup-calls N  calls each gateway answers before it is measured (default 10 000; at most 30 s of warm-up)
 *
 * The base revision is exported with `git archive` into bench/out/builds/<commit>/ and compiled
 * there (kept for the next run); it runs on this checkout's node_modules.
 */

const { values } = parseArgs({
  options: {
    base: { type: 'string', default: 'HEAD' },
    cases: { type: 'string', default: 'meeting-get,checkemail-distinct' },
    rate: { type: 'string', default: '2500' },
    rounds: { type: 'string', default: '6' },
    duration: { type: 'string', default: '4' },
    'warmup-calls': { type: 'string', default: '10000' },
  },
});
const rate = Number(values.rate);
const rounds = Number(values.rounds);
const durationSec = Number(values.duration);
const warmupCalls = Number(values['warmup-calls']);

const base = buildRevision(values.base);
const commit = base.commit;

console.log('compiling this checkout (bench/tsconfig.servers.json → bench/out/dist/) ...');
buildServers();
const entries = { base: `${base.dir}bench/out/dist/bench/gateway-proc.js`, current: `${REPO_ROOT}bench/out/dist/bench/gateway-proc.js` };
const cases = buildCases(() => true).filter((c) => values.cases.split(',').includes(c.id));
const unknown = values.cases.split(',').filter((id) => !cases.some((c) => c.id === id));
if (unknown.length > 0) throw new Error(`unknown case(s): ${unknown.join(', ')}`);

const upstreams = new Upstreams();
const lines: string[] = [];
try {
  for (const c of cases) {
    if (c.upstream !== 'fixed' || c.limiter === 'redis')
      throw new Error(`${c.id}: only cases over the fixed upstream without Redis are compared`);
    const up = await upstreams.get('fixed');
    const env = await gatewayEnvOf(c, up.baseUrl, upstreams);
    const { body } = formsOf(c, up.seeded);
    const sides: Record<'base' | 'current', Child> = {
      base: await startProcess('base gateway', entries.base, env),
      current: await startProcess('gateway', entries.current, env),
    };
    try {
      const load = steadyLoadOf(c, body, rate);
      for (const child of Object.values(sides)) await load.warm(child, warmupCalls);
      const { cpu, problems, slowestRps: slowest } = await alternatedRuns(load, sides, ['base', 'current'], { rounds, durationSec });
      const [base, current] = [median(cpu.base), median(cpu.current)];
      const line =
        `| ${c.id} | ${base.toFixed(1)} | ${current.toFixed(1)} | **${(current / base).toFixed(3)}** | ` +
        `${cpu.base.map((x) => x.toFixed(0)).join(' ')} / ${cpu.current.map((x) => x.toFixed(0)).join(' ')} | ` +
        `${slowest < rate * 0.95 ? `${slowest.toFixed(0)} (short of the rate: a side saturated)` : 'held'} | ${problems} |`;
      console.log(line);
      lines.push(line);
    } finally {
      await Promise.all(Object.values(sides).map((child) => child.stop()));
    }
  }
} finally {
  await upstreams.close();
}

console.log(`
${values.base} (${commit.slice(0, 7)}) against this checkout, ${rate} calls/s each, ${rounds} alternated runs of ${durationSec} s after ${warmupCalls} warm-up calls each

| case | CPU µs per call, base | this checkout | ratio | every run, base / this checkout | rate | problems |
|---|---|---|---|---|---|---|
${lines.join('\n')}`);
