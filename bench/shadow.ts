import { parseArgs } from 'node:util';
import { runLoad, type LoadResult } from './load.js';
import { REPO_ROOT, buildServers, startChild } from './procs.js';

/**
 * `npm run bench:shadow`: the latency shadow mode adds in front of a primary v1, side by side in
 * one run. Four targets, in turn (A B C D A B C D ...), each at the same fixed rate:
 *   direct   — the client calls the primary itself;
 *   floor    — through a minimal pass-through process (bench/proxy-floor.ts): the price of any
 *              extra hop on this machine, which no shadow can go below;
 *   forward  — through v1gate with V1_PRIMARY_URL and SHADOW_SAMPLE=0 (forwarding only);
 *   compare  — the same with SHADOW_SAMPLE=1 (every call also translated and compared in the
 *              background, over the embedded sandbox).
 * The primary answers at once (bench/primary-v1.ts), so the differences are v1gate's own cost.
 */
const { values } = parseArgs({
  options: {
    pairs: { type: 'string', default: '3' },
    duration: { type: 'string', default: '5' },
    rate: { type: 'string', default: '200' },
    connections: { type: 'string', default: '8' },
    // Starts both shadow gateways with --cpu-prof into bench/out/profiles/ (read with bench/profile-summary.ts).
    profile: { type: 'boolean', default: false },
  },
});
const pairs = Number(values.pairs);
const durationSec = Number(values.duration);
const rate = Number(values.rate);
const connections = Number(values.connections);

buildServers();
const primary = await startChild('primary', './primary-v1.ts', {});
const key = 'bench-shadow-key';
const secret = 'bench-shadow-secret';
const gatewayEnv = (sample: string) => ({
  PORT: '0',
  V1_PRIMARY_URL: primary.ready.url as string,
  SHADOW_SAMPLE: sample,
  SANDBOX_API_KEY: key,
  SANDBOX_API_SECRET: secret,
  SANDBOX_RATE_LIMITS: 'off',
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
const floor = await startChild('proxy-floor', './proxy-floor.ts', { PRIMARY_URL: primary.ready.url as string });
const body = new URLSearchParams({ api_key: key, api_secret: secret, email: 'owner@sandbox.v1gate.local' }).toString();
const targets = [
  { name: 'direct', url: primary.ready.url as string },
  { name: 'floor', url: floor.ready.url as string },
  { name: 'forward', url: forward.ready.url as string },
  { name: 'compare', url: compare.ready.url as string },
];
const results = new Map<string, LoadResult[]>(targets.map((t) => [t.name, []]));
try {
  for (const t of targets) await runLoad({ url: t.url, path: '/v1/user/checkemail', body, connections, durationSec: 1, overallRate: rate }); // warm-up
  for (let pair = 0; pair < pairs; pair++) {
    for (const t of targets) {
      const result = await runLoad({ url: t.url, path: '/v1/user/checkemail', body, connections, durationSec, overallRate: rate });
      if (result.errors > 0) throw new Error(`${t.name}: ${result.errors} transport errors`);
      results.get(t.name)!.push(result);
    }
  }
} finally {
  await Promise.all([floor.stop(), forward.stop(), compare.stop(), primary.stop()]);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const row = (name: string) => {
  const runs = results.get(name)!;
  return { p50: median(runs.map((r) => r.p50)), p99: median(runs.map((r) => r.p99)), rps: median(runs.map((r) => r.rps)) };
};
const direct = row('direct');
console.log(`shadow benchmark: ${pairs} rounds × ${durationSec} s at ${rate} req/s, ${connections} connections (medians)`);
console.log('| target | req/s | p50 ms | p99 ms | p99 added ms |');
console.log('|---|---|---|---|---|');
for (const t of targets) {
  const r = row(t.name);
  console.log(
    `| ${t.name} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${t.name === 'direct' ? '' : (r.p99 - direct.p99).toFixed(2)} |`,
  );
}
