import type { BenchReport, CaseResult, Machine } from './harness.js';
import type { SoakResult } from './soak.js';
import type { QuotaResult } from './quota.js';

/** Renders the harness's results as the markdown sections of bench/RESULTS.md. */

const n0 = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '—' : Math.round(x).toLocaleString('en-US'));
const ms = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(2));
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
const ms3 = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(3));

export function machineLines(m: Machine, command: string): string {
  return [
    `- machine: ${m.cpu}, ${m.cores} cores, ${m.memGb} GB; Node ${m.node}; load average ${m.loadAvg.toFixed(1)} at the start${m.loadAvgEnd === undefined ? '' : `, ${m.loadAvgEnd.toFixed(1)} at the end`} (other work on the machine)`,
    `- date: ${m.date}; code: ${m.commit}`,
    `- command: \`${command}\``,
    `- servers (v1gate, floor, upstreams): ${m.runtime === 'tsx' ? 'TypeScript sources under tsx (esbuild loader)' : 'compiled JavaScript (tsc, bench/tsconfig.servers.json), run with plain node as `npm start` runs v1gate'}`,
  ].join('\n');
}

function row(c: CaseResult): string {
  const ka = c.keepAlive ? 'on' : 'off';
  if (c.status !== 'ok') {
    return `| ${c.id} | \`${c.v1Path}\` | ${c.shares} | ${c.upstream} | ${c.limiter} | ${ka} | ${c.status}${c.note ? `: ${c.note.replace(/\|/g, '\\|')}` : ''} ||||||||||||`;
  }
  const f = c.floor!;
  const g = c.gateway!;
  const h = c.half;
  const mem = c.memory
    ? `${mb(c.memory.before.heapUsed)}→${mb(c.memory.after.heapUsed)} / ${mb(c.memory.before.rss)}→${mb(c.memory.after.rss)}`
    : '—';
  return [
    '',
    c.headline ? `**${c.id}**` : c.id,
    `\`${c.v1Path}\``,
    c.shares,
    c.upstream,
    c.limiter,
    ka,
    `${n0(f.rps)} / **${n0(g.rps)}**`,
    `**${c.ratio!.toFixed(2)}x**`,
    `${n0(f.cpuUs)} / ${n0(g.cpuUs)} (${(g.cpuUs / f.cpuUs).toFixed(2)}x)`,
    `${ms(f.p50)} / ${ms(g.p50)}`,
    `${ms(f.p99)} / ${ms(g.p99)}`,
    h ? n0(h.rate) : '—',
    h ? `${n0(h.floor.cpuUs)} / ${n0(h.gateway.cpuUs)} (${(h.gateway.cpuUs / h.floor.cpuUs).toFixed(2)}x)` : '—',
    h ? `${ms(h.floor.p99)} / ${ms(h.gateway.p99)}` : '—',
    h ? `**${h.addedP99 >= 0 ? '+' : ''}${ms(h.addedP99)}**` : '—',
    h?.ownTime ? `${ms3(h.ownTime.p50Ms)} / **${ms3(h.ownTime.p99Ms)}**` : '—',
    c.v2CallsPerCall === undefined ? '—' : c.v2CallsPerCall.toFixed(2),
    mem,
    `${c.problems.floor} / ${c.problems.gateway}`,
    '',
  ]
    .join(' | ')
    .trim();
}

export function renderTable(report: BenchReport, command: string): string {
  const o = report.options;
  const lines = [
    machineLines(report.machine, command),
    `- runs: ${o.pairs} pair(s) floor/v1gate alternated (A B A B), ${o.durationSec} s each, ${o.connections} connections, after a warm-up of ${o.warmupSec} s${o.warmupCalls ? ` and at least ${o.warmupCalls.toLocaleString('en-US')} calls (at most 30 s)` : ''} each; ` +
      (o.halfLoadPairs > 0
        ? `then ${o.halfLoadPairs} pair(s) at half the floor's median peak rate, sent at a steady pace (open loop, bench/paced-load.ts: request i due at i / rate, its latency counted from then; up to ${o.halfLoadConnections} connections). `
        : 'no half-load runs. ') +
      "Medians over the pairs; the ratio and the added p99 are the median of each pair's own ratio or difference (its two runs are seconds apart). Latency in ms, from every response (sub-ms). CPU µs per call: user+system CPU of the server process over the run ÷ calls answered (robust to other load on the machine; ratio = v1gate ÷ floor); at half load neither side is saturated and the load generator does the same work for both, so that ratio is the steadiest reading of what v1gate adds per call.",
    `- one-call endpoint of the targets: \`${report.oneCallPath}\``,
    '',
    "Headline cases (in bold) are one endpoint family each, every request its own ids: nothing for v1gate to share, so they read as the cost of a call. The others post one call from every connection (coalescing cases) or change a setting; the `shares` column says what v1gate may share between their requests. v1gate's own time is v1gate_added_latency_seconds over the half-load runs (scraped from its /metrics before and after each): from a request read to its answer's last byte written, less the waits on v2 and on outbound tokens; its p50/p99 are read within the histogram's buckets (…0.25, 0.5, 0.75, 1, 2.5 ms…).",
    '',
    "| case | v1 call | shares | upstream | limiter | keep-alive | req/s floor / v1gate | ratio | CPU µs per call floor / v1gate | p50 floor / v1gate | p99 floor / v1gate | ½-load req/s | CPU µs per call @½ floor / v1gate | p99 @½ floor / v1gate | added p99 @½ | v1gate's own time p50 / p99 @½ | v2 calls per v1 call | v1gate heap / RSS MB before→after | problems floor / v1gate |",
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...report.cases.map(row),
    '',
    'problems = connection errors + timeouts + non-2xx + v1 error envelopes, over every run of the case (all should be 0).',
  ];
  const samples = report.cases.filter((c) => c.problems.sample).map((c) => `- ${c.id}: \`${c.problems.sample!.replace(/`/g, "'")}\``);
  if (samples.length) lines.push('', 'First error envelope seen per case:', ...samples);
  lines.push('', ...targetLines(report));
  return lines.join('\n');
}

/**
 * Above this, the floor's own p99 at half its peak says the machine (or the load generator beside
 * the servers) stalls for longer than the 2 ms the target is about: a difference of two such p99s
 * is noise, and no verdict is given.
 */
const RESOLVABLE_P99_MS = 5;

function addedP99Verdict(half: CaseResult['half']): string {
  if (!half) return 'not measured';
  const measured = `${ms(half.addedP99)} ms at ${n0(half.rate)} req/s`;
  if (half.floor.p99 > RESOLVABLE_P99_MS) {
    return `${measured} — not measurable here: the floor's own p99 at half load was ${ms(half.floor.p99)} ms (over ${RESOLVABLE_P99_MS} ms)`;
  }
  return `${measured} — ${half.addedP99 < 2 ? 'MET' : 'MISSED'}`;
}

const verdictOf = (ok: boolean | undefined) => (ok === undefined ? 'not measured' : ok ? 'MET' : 'MISSED');

/** CPU per call against the floor's at half load (neither side saturated), else at saturation. */
const cpuRatioAtHalf = (c: CaseResult) => (c.half ? c.half.gateway.cpuUs / c.half.floor.cpuUs : undefined);

/**
 * The targets of the headline cases, where nothing is shared: CPU per call and req/s against the
 * floor, the write's queue at half load, and v1gate's own time per call.
 */
function headlineTargets(cases: readonly CaseResult[]): string[] {
  const byId = new Map(cases.map((c) => [c.id, c]));
  const lines: string[] = [];
  const limits = [
    ['checkemail-distinct', 'the one-call distinct read', 1.3],
    ['meeting-create', 'the write', 1.5],
  ] as const;
  for (const [id, what, limit] of limits) {
    const c = byId.get(id);
    if (c?.status !== 'ok') continue;
    const half = cpuRatioAtHalf(c);
    const saturated = c.gateway!.cpuUs / c.floor!.cpuUs;
    lines.push(
      `- CPU per call ≤ ${limit}x the floor's on ${what} (\`${id}\`), at half load: ${half?.toFixed(2) ?? '—'}x (${saturated.toFixed(2)}x at saturation) — ${verdictOf(half === undefined ? undefined : half <= limit)}`,
    );
  }
  const headline = cases.filter((c) => c.headline && c.status === 'ok');
  if (headline.length > 0) {
    const ratios = headline.map((c) => `${c.id} ${c.ratio!.toFixed(2)}x`).join(', ');
    lines.push(`- req/s ≥ 0.75x the floor's on the headline cases: ${ratios} — ${verdictOf(headline.every((c) => c.ratio! >= 0.75))}`);
  }
  const create = byId.get('meeting-create');
  if (create?.half) {
    const { floor, gateway } = create.half;
    lines.push(
      `- \`meeting-create\`'s queue does not grow at half the floor's peak (p99 within 2x the floor's): ${ms(gateway.p99)} ms against ${ms(floor.p99)} ms — ${verdictOf(gateway.p99 <= 2 * floor.p99)}`,
    );
  }
  const own = headline.filter((c) => c.half?.ownTime?.p99Ms !== undefined);
  if (own.length > 0) {
    const figures = own.map((c) => `${c.id} ${ms3(c.half!.ownTime!.p99Ms)} ms`).join(', ');
    lines.push(`- v1gate's own time p99 < 1 ms at half load: ${figures} — ${verdictOf(own.every((c) => c.half!.ownTime!.p99Ms! < 1))}`);
  }
  return lines;
}

export function targetLines(report: BenchReport): string[] {
  const byId = new Map(report.cases.map((c) => [c.id, c]));
  const one = byId.get(report.oneCallPath === '/v1/meeting/get' ? 'meeting-get' : 'checkemail');
  const lines = ['Targets (computed by the runner):'];
  const verdict = (ok: boolean | undefined) => (ok === undefined ? 'not measured' : ok ? 'MET' : 'MISSED');
  if (one?.status === 'ok') {
    lines.push(`- one-call \`${one.v1Path}\` at ≥ 0.9x the floor's req/s: ${one.ratio!.toFixed(2)}x — ${verdict(one.ratio! >= 0.9)}`);
    lines.push(`- p99 added latency < 2 ms at half the floor's peak: ${addedP99Verdict(one.half)}`);
  } else lines.push(`- one-call: ${one?.status ?? 'not run'}`);
  const checkemail = byId.get('checkemail');
  if (one?.id !== 'checkemail' && checkemail?.status === 'ok') {
    lines.push(
      `- (single v2 call \`/v1/user/checkemail\`: ${checkemail.ratio!.toFixed(2)}x, added p99 @½ ${checkemail.half ? ms(checkemail.half.addedP99) : '—'} ms)`,
    );
  }
  lines.push(...headlineTargets(report.cases));
  const redis = byId.get('limiter-redis');
  const memory = byId.get('limiter-memory');
  if (one?.status === 'ok' && redis?.status === 'ok') {
    const cost = 1 - redis.ratio! / one.ratio!;
    lines.push(
      `- Redis limiter cost < 10% (ratio to floor with Redis vs limiter off): ${(cost * 100).toFixed(1)}% — ${verdict(cost < 0.1)}`,
    );
  } else lines.push(`- Redis limiter cost: ${redis?.status ?? 'not run'}`);
  if (one?.status === 'ok' && memory?.status === 'ok') {
    lines.push(`- (in-memory limiter cost, same measure: ${((1 - memory.ratio! / one.ratio!) * 100).toFixed(1)}%)`);
  }
  const xml = byId.get('xml');
  const json = byId.get('meeting-get');
  if (xml?.status === 'ok' && json?.status === 'ok') {
    // The two cases run minutes apart; each one's floor, measured beside it, shows how far the machine drifted between them.
    const raw = xml.gateway!.cpuUs / json.gateway!.cpuUs;
    const drift = xml.floor!.cpuUs / json.floor!.cpuUs;
    lines.push(
      `- XML within 1.2x of JSON's CPU per call (\`${xml.v1Path}\`, v1gate): ${raw.toFixed(2)}x (${(raw / drift).toFixed(2)}x against each case's own floor) — ${verdict(raw <= 1.2)}`,
    );
  }
  lines.push('- memory flat over a 5-minute soak: see the soak section (`npm run bench -- --soak`).');
  return lines;
}

export function renderSoak(soak: SoakResult, m: Machine, command: string): string {
  const first = soak.samples[0]!;
  const last = soak.samples.at(-1)!;
  const flat = Math.abs(soak.heapSlopeMbPerMin) < 0.5 && last.heapUsedMb - first.heapUsedMb < Math.max(2, first.heapUsedMb * 0.1);
  return [
    machineLines(m, command),
    `- v1gate alone on \`${soak.v1Path}\` over the fixed upstream, ${soak.connections} connections, flat out for ${soak.durationSec} s: ${n0(soak.rps)} req/s, ${soak.problems} problems`,
    `- after a full GC: heap ${first.heapUsedMb.toFixed(1)} → ${last.heapUsedMb.toFixed(1)} MB (slope ${soak.heapSlopeMbPerMin.toFixed(3)} MB/min), RSS ${first.rssMb.toFixed(1)} → ${last.rssMb.toFixed(1)} MB (slope ${soak.rssSlopeMbPerMin.toFixed(3)} MB/min)`,
    `- target "memory flat over a 5-minute soak": ${soak.durationSec >= 300 ? (flat ? 'MET' : 'MISSED') : `not measured (only ${soak.durationSec} s)`} (flat = heap slope under 0.5 MB/min and growth under max(2 MB, 10%))`,
    '',
    `samples (s: heap MB / RSS MB): ${soak.samples.map((s) => `${s.atSec}: ${s.heapUsedMb.toFixed(1)}/${s.rssMb.toFixed(0)}`).join(', ')}`,
  ].join('\n');
}

/** The quota case (bench/quota.ts): share of each class's v2 quota a saturated key got, and the upstream's 429s. */
export function renderQuota(results: QuotaResult[], m: Machine, command: string): string {
  const met = (r: QuotaResult) => r.share >= 0.95 && r.upstream429 === 0;
  return [
    machineLines(m, command),
    '- v1gate (outbound limits on, inbound off, in-memory buckets) over the real sandbox with its v2 limits on (10/s general, 1/s report); every v1 call distinct (no coalescing, no cache), one v2 call each; v2 calls counted by the sandbox itself',
    '',
    '| case | v1 call | v2 class (quota) | connections | run s | v2 calls admitted | v2 calls/s | share of quota | upstream 429s | v1 answered / errors |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...results.map((r) =>
      [
        '',
        r.id,
        `\`${r.v1Path}\``,
        `${r.category} (${r.quotaPerSec}/s)`,
        String(r.connections),
        r.durationSec.toFixed(1),
        String(r.v2Admitted),
        r.v2PerSec.toFixed(2),
        `**${(r.share * 100).toFixed(1)}%**`,
        `**${r.upstream429}**`,
        `${r.v1Answered} / ${r.v1Errors}`,
        '',
      ]
        .join(' | ')
        .trim(),
    ),
    '',
    ...results.filter((r) => r.firstV1Error).map((r) => `- ${r.id}, first v1 error: \`${r.firstV1Error!.replace(/`/g, "'")}\``),
    'Targets (computed by the runner):',
    ...results.map(
      (r) =>
        `- ${r.id}: ≥ 95% of the ${r.quotaPerSec}/s quota with 0 upstream 429s: ${(r.share * 100).toFixed(1)}%, ${r.upstream429} — ${met(r) ? 'MET' : 'MISSED'}`,
    ),
  ].join('\n');
}

/** Replace the text between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->` (appended when absent). */
export function replaceSection(doc: string, name: string, content: string): string {
  const open = `<!-- bench:${name} -->`;
  const close = `<!-- /bench:${name} -->`;
  const start = doc.indexOf(open);
  const end = doc.indexOf(close);
  const block = `${open}\n${content}\n${close}`;
  if (start === -1 || end === -1) return `${doc.trimEnd()}\n\n${block}\n`;
  return doc.slice(0, start) + block + doc.slice(end + close.length);
}
