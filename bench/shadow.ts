import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { runLoad, type LoadResult } from './load.js';
import { REPO_ROOT, buildServers, startChild, type Child } from './procs.js';

/**
 * `npm run bench:shadow`: the latency shadow mode adds in front of a primary v1, side by side in
 * one run. Four targets, in turn (A B C D, then B C D A, ...), each at the same steady rate:
 *   direct   — the client calls the primary itself;
 *   floor    — through a minimal pass-through process (bench/proxy-floor.ts): the price of any
 *              extra hop on this machine, which no shadow can go below;
 *   forward  — through v1gate with V1_PRIMARY_URL and SHADOW_SAMPLE=0 (forwarding only);
 *   compare  — the same with SHADOW_SAMPLE=1 (every call also translated and compared in the
 *              background).
 * The primary answers at once (bench/primary-v1.ts), so the differences are the hops' own cost.
 * The shadows' v2 API is the sandbox in its own process, as the real v2 is another service: its
 * CPU is then the machine's, not the shadow's event loop's.
 *
 * What is printed: per target the medians over rounds, and p99 added over direct and over floor as
 * the median of each round's paired difference (targets of one round ran seconds apart) with its
 * spread (min–max); CPU µs per call of the target's own process (process.cpuUsage over the run ÷
 * answers), which a busy machine disturbs far less than latency; the compare gateway's shadow
 * counters (compared, dropped).
 */
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    duration: { type: 'string', default: '5' },
    rate: { type: 'string', default: '200' },
    connections: { type: 'string', default: '8' },
    // Starts both shadow gateways with --cpu-prof into bench/out/profiles/ (read with bench/profile-summary.ts).
    profile: { type: 'boolean', default: false },
  },
});
const rounds = Number(values.rounds);
const durationSec = Number(values.duration);
const rate = Number(values.rate);
const connections = Number(values.connections);
const loadBefore = loadavg()[0]!;

buildServers();
const key = 'bench-shadow-key';
const secret = 'bench-shadow-secret';
const primary = await startChild('primary', './primary-v1.ts', {});
const sandbox = await startChild('sandbox', './sandbox-upstream.ts', { SANDBOX_API_KEY: key, SANDBOX_API_SECRET: secret });
const gatewayEnv = (sample: string) => ({
  PORT: '0',
  V1_PRIMARY_URL: primary.ready.url as string,
  V2_BASE_URL: `http://127.0.0.1:${sandbox.ready.port}/v2`,
  SHADOW_SAMPLE: sample,
  V1_RATE_LIMITS: 'off',
  V2_RATE_LIMITS: 'off',
  LOG_LEVEL: 'silent',
  // The primary keeps connections alive; so must the shadow, or the run measures TCP handshakes.
  V1_KEEP_ALIVE: 'on',
});
const profile = (name: string) =>
  values.profile ? ['--cpu-prof', '--cpu-prof-dir', `${REPO_ROOT}bench/out/profiles`, '--cpu-prof-name', `${name}.cpuprofile`] : [];
const forward = await startChild('shadow-forward', './gateway-proc.ts', gatewayEnv('0'), profile('shadow-forward'));
const compare = await startChild('shadow-compare', './gateway-proc.ts', gatewayEnv('1'), profile('shadow-compare'));
const floor = await startChild('proxy-floor', './proxy-floor.ts', { PRIMARY_URL: primary.ready.url as string }, profile('proxy-floor'));
const body = new URLSearchParams({ api_key: key, api_secret: secret, email: 'owner@sandbox.v1gate.local' }).toString();
const targets: { name: string; url: string; server: Child }[] = [
  { name: 'direct', url: primary.ready.url as string, server: primary },
  { name: 'floor', url: floor.ready.url as string, server: floor },
  { name: 'forward', url: forward.ready.url as string, server: forward },
  { name: 'compare', url: compare.ready.url as string, server: compare },
];

interface Run extends LoadResult {
  /** CPU µs of the target's own process per answer. */
  cpuPerCall: number;
}
const cpuOf = async (child: Child) => {
  const { usage } = (await child.ask('cpu')) as { usage: NodeJS.CpuUsage };
  return usage.user + usage.system;
};
const measure = async (t: (typeof targets)[number]): Promise<Run> => {
  const cpuBefore = await cpuOf(t.server);
  const result = await runLoad({ url: t.url, path: '/v1/user/checkemail', body, connections, durationSec, overallRate: rate });
  // The compare target's background work may outlast the load by a little: it is its cost too.
  if (t.name === 'compare') await new Promise((resolve) => setTimeout(resolve, 200));
  const cpu = (await cpuOf(t.server)) - cpuBefore;
  if (result.errors > 0 || result.envelopeErrors > 0)
    throw new Error(`${t.name}: ${result.errors} transport errors, ${result.envelopeErrors} v1 errors`);
  return { ...result, cpuPerCall: cpu / Math.max(1, result.total) };
};

const runs = new Map<string, Run[]>(targets.map((t) => [t.name, []]));
let shadowCounters = '';
try {
  for (const t of targets) await runLoad({ url: t.url, path: '/v1/user/checkemail', body, connections, durationSec: 1, overallRate: rate }); // warm-up
  for (let round = 0; round < rounds; round++) {
    // Each round starts one target later, so no target always runs right after the same one.
    for (let i = 0; i < targets.length; i++) {
      const t = targets[(round + i) % targets.length]!;
      runs.get(t.name)!.push(await measure(t));
    }
  }
  const metrics = await (await fetch(`${compare.ready.url as string}/metrics`)).text();
  shadowCounters = [...metrics.matchAll(/^v1gate_shadow_calls_total\{outcome="(\w+)"\} (\d+)/gm)].map((m) => `${m[1]} ${m[2]}`).join(', ');
} finally {
  await Promise.all([floor.stop(), forward.stop(), compare.stop(), sandbox.stop(), primary.stop()]);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const paired = (name: string, reference: string) => {
  const own = runs.get(name)!;
  const ref = runs.get(reference)!;
  const added = own.map((r, i) => r.p99 - ref[i]!.p99);
  return `${median(added).toFixed(2)} (${Math.min(...added).toFixed(2)}…${Math.max(...added).toFixed(2)})`;
};
console.log(
  `shadow benchmark: ${rounds} rounds × ${durationSec} s at ${rate} req/s (steady, open loop), ${connections} connections; ` +
    `load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after`,
);
console.log(
  '| target | req/s | p50 ms | p99 ms | p99 added over direct, ms (min…max) | p99 added over floor, ms (min…max) | CPU µs/call |',
);
console.log('|---|---|---|---|---|---|---|');
for (const t of targets) {
  const r = runs.get(t.name)!;
  const cells = [
    t.name,
    median(r.map((x) => x.rps)).toFixed(0),
    median(r.map((x) => x.p50)).toFixed(2),
    median(r.map((x) => x.p99)).toFixed(2),
    t.name === 'direct' ? '' : paired(t.name, 'direct'),
    t.name === 'direct' || t.name === 'floor' ? '' : paired(t.name, 'floor'),
    median(r.map((x) => x.cpuPerCall)).toFixed(0),
  ];
  console.log(`| ${cells.join(' | ')} |`);
}
console.log(
  `p99 per round, ms: ${targets
    .map(
      (t) =>
        `${t.name} ${runs
          .get(t.name)!
          .map((r) => r.p99.toFixed(1))
          .join(' ')}`,
    )
    .join('; ')}`,
);
console.log(`compare gateway's shadow counters: ${shadowCounters}`);
