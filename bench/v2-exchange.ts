import { parseArgs } from 'node:util';
import { buildRevision } from './base-build.js';
import { median, Upstreams } from './harness.js';
import { buildServers, REPO_ROOT, startProcess, type Child } from './procs.js';

/**
 * `npx tsx bench/v2-exchange.ts -- --base <git revision>`: the v2 client's own CPU per call, this
 * checkout's against another revision's, with nothing else of the gateway around it: each build's
 * client in a process of its own (bench/v2-exchange-driver.ts) over the fixed-answer upstream (a
 * third process), their rounds alternated (A B, B A, ...), medians of CPU µs per call.
 *
 *   --base REV         the revision to compare with (default HEAD)
 *   --cases read,write the driver's cases (default both)
 *   --rounds N         alternated rounds per build and case (default 8)
 *   --calls N          calls per round (default 20 000), --concurrency N in flight (default 16)
 *   --warmup-rounds N  rounds each build runs first, unmeasured (default 2)
 */

const { values } = parseArgs({
  options: {
    base: { type: 'string', default: 'HEAD' },
    cases: { type: 'string', default: 'read,write' },
    rounds: { type: 'string', default: '8' },
    calls: { type: 'string', default: '20000' },
    concurrency: { type: 'string', default: '16' },
    'warmup-rounds': { type: 'string', default: '2' },
  },
  allowPositionals: true,
});

const base = buildRevision(values.base);
console.log('compiling this checkout (bench/tsconfig.servers.json → bench/out/dist/) ...');
buildServers();
const builds = { base: `${base.dir}bench/out/dist/`, current: `${REPO_ROOT}bench/out/dist/` };
const driver = `${REPO_ROOT}bench/out/dist/bench/v2-exchange-driver.js`;

const upstreams = new Upstreams();
const lines: string[] = [];
try {
  const up = await upstreams.get('fixed');
  for (const name of values.cases.split(',')) {
    const env = {
      V2_BASE_URL: up.baseUrl,
      V2_USER_ID: up.seeded.userId,
      V2_CASE: name,
      V2_CALLS: values.calls,
      V2_CONCURRENCY: values.concurrency,
    };
    const sides: Record<'base' | 'current', Child> = {
      base: await startProcess('base client', driver, { ...env, V2_BUILD_DIST: builds.base }),
      current: await startProcess('client', driver, { ...env, V2_BUILD_DIST: builds.current }),
    };
    try {
      const cpu = { base: [] as number[], current: [] as number[] };
      const round = async (side: 'base' | 'current') => {
        const answer = (await sides[side].ask('round', 300_000)) as { cpuUs?: number; failures?: number; error?: string };
        if (answer.cpuUs === undefined || answer.failures !== 0)
          throw new Error(`${side}: ${answer.error ?? `${answer.failures} calls failed`}`);
        return answer.cpuUs;
      };
      for (let i = 0; i < Number(values['warmup-rounds']); i++) for (const side of ['base', 'current'] as const) await round(side);
      for (let i = 0; i < Number(values.rounds); i++) {
        const order = i % 2 === 0 ? (['base', 'current'] as const) : (['current', 'base'] as const);
        for (const side of order) cpu[side].push(await round(side));
      }
      const [b, c] = [median(cpu.base), median(cpu.current)];
      const line =
        `| ${name} | ${b.toFixed(1)} | ${c.toFixed(1)} | **${(c / b).toFixed(3)}** | ` +
        `${cpu.base.map((x) => x.toFixed(1)).join(' ')} / ${cpu.current.map((x) => x.toFixed(1)).join(' ')} |`;
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
${values.base} (${base.commit.slice(0, 7)}) against this checkout: the v2 client alone, ${values.rounds} alternated rounds of ${values.calls} calls (${values.concurrency} in flight) per build

| case | CPU µs per call, base | this checkout | ratio | every round, base / this checkout |
|---|---|---|---|---|
${lines.join('\n')}`);
