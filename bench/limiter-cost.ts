import { parseArgs } from 'node:util';
import { buildCases, type LimiterMode } from './cases.js';
import { alternatedRuns, formsOf, gatewayEnvOf, median, steadyLoadOf, Upstreams } from './harness.js';
import { buildServers, startChild, type Child } from './procs.js';

/**
 * `npm run bench:limiter`: what the in-memory limiters cost per call, as CPU. One build's gateway
 * twice, its limiters off and on (V1_RATE_LIMITS and V2_RATE_LIMITS, RATE_LIMIT_SCALE=1000000 so they
 * do all their work and never refuse, as the `limiter-memory` case of `npm run bench`), at the same
 * steady load over one fixed upstream, in alternated runs, as `npm run bench:builds` compares two
 * builds. The cost is CPU per call on ÷ off − 1.
 *
 * `npm run bench`'s "in-memory limiter cost" compares two cases' req/s ratios against their floors,
 * measured a minute apart: on this shared 2-core machine the floor alone moved from 6,500 to 16,700
 * req/s between two of them, and the cost read anywhere from 4% to 21%. Here both gateways run side
 * by side, unsaturated, the load generator doing the same work for each.
 *
 *   --cases a,b       case ids of bench/cases.ts over the fixed upstream (default meeting-get,checkemail-distinct)
 *   --limiter L       the limiter of the "on" side: memory (default) or redis
 *   --rate N          calls per second sent to each gateway (default 2500)
 *   --rounds N        alternated runs per side and case (default 6)
 *   --duration S      seconds per run (default 4)
 *   --warmup-calls N  calls each gateway answers before it is measured (default 10 000)
 *   --in-process      instead: the limiters alone, in this process (an inbound check with its
 *                     headers; an outbound schedule through the v2 client's gate, its account's
 *                     budget found and its route's category read, of a call already answered, over
 *                     1,000 meeting paths), `--calls` each per round, five rounds: what the limiters themselves
 *                     cost, below what two gateways' CPU per call can resolve
 */

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: 'meeting-get,checkemail-distinct' },
    limiter: { type: 'string', default: 'memory' },
    rate: { type: 'string', default: '2500' },
    rounds: { type: 'string', default: '6' },
    duration: { type: 'string', default: '4' },
    'warmup-calls': { type: 'string', default: '10000' },
    'in-process': { type: 'boolean', default: false },
    calls: { type: 'string', default: '300000' },
  },
});

if (values['in-process']) {
  const { createRateLimiters, rateLimitConfig, rateLimitHeaders } = await import('../src/ratelimit/index.js');
  const limiters = createRateLimiters(rateLimitConfig({ scale: 1_000_000 }));
  const { limiterGate } = await import('../src/upstream/outbound-gate.js');
  const { V2Budgets } = await import('../src/upstream/outbound-budget.js');
  const { V2 } = await import('../src/v2-contract/v2-routes.js');
  // A key the credential map names, acting as its account's OAuth app: the budget is its account's.
  const gate = limiterGate(limiters.outbound, new V2Budgets('pro'));
  const mapped = {
    apiKey: 'benchKey',
    apiSecret: 'benchSecret',
    v2: { kind: 'oauth' as const, accountId: 'benchAccount', clientId: 'c', clientSecret: 's' },
  };
  const calls = Number(values.calls);
  const answered = Promise.resolve();
  const cpuUsPerCall = async (one: (i: number) => Promise<unknown>) => {
    const started = process.cpuUsage();
    for (let i = 0; i < calls; i++) await one(i);
    const used = process.cpuUsage(started);
    return (used.user + used.system) / calls;
  };
  const inbound: number[] = [];
  const outbound: number[] = [];
  for (let round = 0; round < 5; round++) {
    inbound.push(await cpuUsPerCall(async () => rateLimitHeaders(await limiters.inbound.check('benchKey', '/v1/meeting/get'))));
    outbound.push(await cpuUsPerCall((i) => gate.schedule(mapped, V2.meetings.get.at(90_000_000 + (i % 1000)), () => answered)));
  }
  await limiters.close();
  const us = (xs: number[]) => `${median(xs).toFixed(2)} (${xs.map((x) => x.toFixed(2)).join(' ')})`;
  console.log(`the limiters alone, in memory, ${calls} calls per round, CPU µs per call, median (every round):
- inbound check and its headers: ${us(inbound)}
- outbound schedule of one v2 call: ${us(outbound)}`);
  process.exit(0);
}
const limiter = values.limiter as LimiterMode;
if (limiter !== 'memory' && limiter !== 'redis') throw new Error('--limiter is memory or redis');
const rate = Number(values.rate);
const rounds = Number(values.rounds);
const durationSec = Number(values.duration);
const ids = values.cases.split(',');
const cases = buildCases(() => true).filter((c) => ids.includes(c.id));
const unknown = ids.filter((id) => !cases.some((c) => c.id === id));
if (unknown.length > 0) throw new Error(`unknown case(s): ${unknown.join(', ')}`);

console.log('compiling the servers (bench/tsconfig.servers.json → bench/out/dist/) ...');
buildServers();
const upstreams = new Upstreams();
const lines: string[] = [];
try {
  for (const c of cases) {
    if (c.upstream !== 'fixed') throw new Error(`${c.id}: only cases over the fixed upstream are compared`);
    const up = await upstreams.get('fixed');
    const { body } = formsOf(c, up.seeded);
    const sides: Record<'off' | 'on', Child> = {
      off: await startChild(
        'gateway (limiters off)',
        './gateway-proc.ts',
        await gatewayEnvOf({ ...c, limiter: 'off' }, up.baseUrl, upstreams),
      ),
      on: await startChild('gateway (limiters on)', './gateway-proc.ts', await gatewayEnvOf({ ...c, limiter }, up.baseUrl, upstreams)),
    };
    try {
      const load = steadyLoadOf(c, body, rate);
      for (const child of Object.values(sides)) await load.warm(child, Number(values['warmup-calls']));
      const { cpu, problems } = await alternatedRuns(load, sides, ['off', 'on'], {
        rounds,
        durationSec,
        onRun: (name, run) => {
          if (run.errors + run.timeouts + run.non2xx + run.envelopeErrors > 0)
            console.log(
              `  ${c.id}, limiters ${name}: ${run.errors} errors, ${run.timeouts} timeouts, ${run.non2xx} non-2xx, ${run.envelopeErrors} v1 errors ${run.firstEnvelopeError ?? ''}`,
            );
        },
      });
      const [off, on] = [median(cpu.off), median(cpu.on)];
      const line =
        `| ${c.id} | ${off.toFixed(1)} | ${on.toFixed(1)} | **${((on / off - 1) * 100).toFixed(1)}%** | ` +
        `${cpu.off.map((x) => x.toFixed(0)).join(' ')} / ${cpu.on.map((x) => x.toFixed(0)).join(' ')} | ${problems} |`;
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
limiters off against ${limiter}, ${rate} calls/s each, ${rounds} alternated runs of ${durationSec} s after ${values['warmup-calls']} warm-up calls each

| case | CPU µs per call, limiters off | on (${limiter}) | cost | every run, off / on | problems |
|---|---|---|---|---|---|
${lines.join('\n')}`);
