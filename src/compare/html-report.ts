import { REPORT_CSS, escapeHtml } from '../shared/report-style.js';
import type { CompareReport, EndpointReport, FieldReport, Verdict } from './report.js';

/**
 * A compare report as one self-contained HTML page, in the status page's style, read top to
 * bottom in the order a person decides with it: the summary (every call accounted for, each
 * endpoint's verdict), the real differences with examples side by side and the source of each
 * field, the expected noise folded behind its counts, then the ready endpoints in one table.
 *
 * `extra` adds per-endpoint columns to the summary table (shadow mode's cut-over state).
 */
export interface ReportColumns {
  head: string;
  /** The cell of one endpoint, as text. */
  cell(path: string): string;
}

const VERDICT_LEVEL: Record<Verdict, string> = { ready: 'level-ok', differs: 'level-bad', 'not exercised': 'level-idle' };

export function renderHtmlReport(report: CompareReport, title = 'v1 compare', extra: readonly ReportColumns[] = []): string {
  const exercised = report.endpoints.filter((e) => e.recorded > 0);
  const differing = report.endpoints.filter((e) => e.verdict === 'differs');
  const noisy = exercised.filter((e) => e.noise.length > 0);
  const ready = report.endpoints.filter((e) => e.verdict === 'ready');
  const idle = report.endpoints.filter((e) => e.verdict === 'not exercised');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}: ${esc(report.a)} vs ${esc(report.b)}</title>
<link rel="icon" href="data:,">
<style>${REPORT_CSS}${PAGE_CSS}</style></head><body>
<h1>${esc(title)}</h1>
<p class="muted">A <code>${esc(report.a)}</code> · B <code>${esc(report.b)}</code>${report.noise ? ` · noise <code>${esc(report.noise)}</code>` : ''} · ${esc(report.generated_at)}</p>
${summarySection(report, exercised, extra)}
${differencesSection(differing)}
${noiseSection(noisy)}
${readySection(ready)}
${idleSection(idle)}
</body></html>
`;
}

/** What the shared style lacks for a report: folded sections, values side by side, a field's heading. */
const PAGE_CSS = `
  section.block { margin-top: 1.75rem; }
  .panel.endpoint { margin-bottom: .75rem; }
  .field { display: grid; grid-template-columns: minmax(12rem, 1fr) 2fr; gap: .25rem 1rem; border-top: 1px solid var(--rule); padding: .5rem 0; }
  .field:first-of-type { border-top: 0; }
  .field .why { color: var(--muted); font-size: .85rem; }
  .pair { display: grid; grid-template-columns: 1fr 1fr; gap: .5rem; margin: 0 0 .35rem; }
  .pair > div { background: var(--paper); border-radius: 6px; padding: .35rem .5rem; overflow-wrap: anywhere; }
  .pair .side { display: block; font-size: .7rem; text-transform: uppercase; color: var(--muted); }
  .params { color: var(--muted); font-size: .8rem; }
  details { background: var(--card); border-radius: 8px; box-shadow: 0 1px 2px #0001; padding: .5rem 1rem; margin-bottom: .5rem; }
  details > summary { cursor: pointer; }
  details table { box-shadow: none; margin-top: .5rem; }
  #summary-line { font-size: 1rem; margin: .75rem 0; }
`;

const badge = (verdict: Verdict) => `<span class="badge ${VERDICT_LEVEL[verdict]}">${esc(verdict)}</span>`;

/** v2 calls per v1 call: what each side measured (v1gate says it in X-V2-Calls), and the declared typical count. */
function costText(endpoint: EndpointReport): string {
  const { a, b, declared } = endpoint.v2_calls_per_call;
  const measured = [a !== undefined ? `A ${a}` : '', b !== undefined ? `B ${b}` : ''].filter(Boolean).join(' · ');
  return [measured, declared !== undefined ? `declared ${declared}` : ''].filter(Boolean).join(' · ') || '–';
}

function summarySection(report: CompareReport, exercised: readonly EndpointReport[], extra: readonly ReportColumns[]): string {
  const s = report.summary;
  const card = (label: string, value: number, level = '') =>
    `<div class="card"><div class="label">${esc(label)}</div><div class="value ${level}">${value.toLocaleString('en-US')}</div></div>`;
  const rows = exercised
    .map(
      (
        e,
      ) => `<tr data-endpoint="${esc(e.path)}" data-verdict="${esc(e.verdict)}"><td><code>/v1${esc(e.path)}</code></td><td>${badge(e.verdict)}</td>
<td class="num">${e.recorded}</td><td class="num">${e.calls}</td><td class="num${e.differing ? ' level-bad' : ''}">${e.differing}</td><td class="num">${esc(costText(e))}</td>${extra.map((x) => `<td>${esc(x.cell(e.path))}</td>`).join('')}</tr>`,
    )
    .join('\n');
  return `<section id="summary" class="block">
<p id="summary-line">${esc(s.line)}</p>
<div class="cards">
${card('Recorded calls', s.recorded)}${card('Compared', s.compared)}${card('With real differences', s.differing_calls, s.differing_calls ? 'level-bad' : 'level-ok')}
${card('Endpoints ready', s.endpoints.ready, 'level-ok')}${card('Endpoints differing', s.endpoints.differs, s.endpoints.differs ? 'level-bad' : '')}${card('Not exercised', s.endpoints.not_exercised)}
</div>
<h2>Endpoints</h2>
<table id="verdicts"><thead><tr><th>Endpoint</th><th>Verdict</th><th class="num">Recorded</th><th class="num">Compared</th><th class="num">Differing</th><th class="num">v2 calls per v1 call</th>${extra.map((x) => `<th>${esc(x.head)}</th>`).join('')}</tr></thead>
<tbody>${rows}</tbody></table>
</section>`;
}

function differencesSection(differing: readonly EndpointReport[]): string {
  if (differing.length === 0)
    return `<section id="differences" class="block"><h2>Real differences</h2><p class="level-ok">None.</p></section>`;
  const panels = differing
    .map(
      (e) => `<div class="panel endpoint" data-endpoint="${esc(e.path)}">
<h3><code>/v1${esc(e.path)}</code> — ${e.differing} of ${e.calls} compared calls differ</h3>
${e.real.map(fieldBlock).join('\n')}
</div>`,
    )
    .join('\n');
  return `<section id="differences" class="block"><h2>Real differences</h2>\n${panels}\n</section>`;
}

function fieldBlock(f: FieldReport): string {
  const examples = f.examples
    .map(
      (x) =>
        `<div class="pair"><div><span class="side">A</span><code>${esc(show(x.a))}</code></div><div><span class="side">B</span><code>${esc(show(x.b))}</code></div></div>${
          x.params && Object.keys(x.params).length ? `<div class="params">params <code>${esc(show(x.params))}</code></div>` : ''
        }`,
    )
    .join('\n');
  return `<div class="field" data-field="${esc(f.field)}" data-kind="${f.kind}"><div><strong><code>${esc(f.field)}</code></strong> ${esc(f.kind)} · ${f.count}×
<div class="why">${esc(f.why)}</div></div>
<div>${examples}</div></div>`;
}

function noiseSection(noisy: readonly EndpointReport[]): string {
  const total = noisy.reduce((n, e) => n + e.noise.reduce((m, f) => m + f.count, 0), 0);
  const blocks = noisy
    .map((e) => {
      const count = e.noise.reduce((n, f) => n + f.count, 0);
      const rows = e.noise
        .map(
          (f) =>
            `<tr><td><code>${esc(f.field)}</code></td><td class="num">${f.count}</td><td>${esc(f.noise ?? '')}</td><td>${esc(f.why)}</td><td><code>${esc(show(f.examples[0]?.a))}</code> / <code>${esc(show(f.examples[0]?.b))}</code></td></tr>`,
        )
        .join('\n');
      return `<details data-endpoint="${esc(e.path)}"><summary><code>/v1${esc(e.path)}</code>: ${count} expected differences in ${e.noise.length} fields</summary>
<table><thead><tr><th>Field</th><th class="num">Count</th><th>Why it is noise</th><th>Source</th><th>Example (A / B)</th></tr></thead><tbody>${rows}</tbody></table></details>`;
    })
    .join('\n');
  return `<section id="noise" class="block"><h2>Expected differences (noise): ${total}</h2>
<p class="muted">Identifiers each service mints, links that embed them, times within the tolerance: reported, never hidden.</p>
${blocks || '<p class="muted">None.</p>'}</section>`;
}

function readySection(ready: readonly EndpointReport[]): string {
  const rows = ready
    .map(
      (e) =>
        `<tr data-endpoint="${esc(e.path)}"><td><code>/v1${esc(e.path)}</code></td><td class="num">${e.calls}</td><td class="num">${e.noise.reduce((n, f) => n + f.count, 0)}</td><td class="num">${esc(costText(e))}</td></tr>`,
    )
    .join('\n');
  const heading = ready.length === 1 ? '1 endpoint answers' : `${ready.length} endpoints answer`;
  return `<section id="ready" class="block"><h2>Ready: ${heading} as A does</h2>
${ready.length ? `<table id="ready-table"><thead><tr><th>Endpoint</th><th class="num">Compared calls</th><th class="num">Noise</th><th class="num">v2 calls per v1 call</th></tr></thead><tbody>${rows}</tbody></table>` : '<p class="muted">None yet.</p>'}
</section>`;
}

function idleSection(idle: readonly EndpointReport[]): string {
  if (idle.length === 0) return '';
  const recorded = idle.filter((e) => e.recorded > 0);
  const never = idle.filter((e) => e.recorded === 0);
  const reasons = (e: EndpointReport) =>
    Object.entries(e.not_compared)
      .map(([reason, n]) => `${n} ${reason}`)
      .join(', ');
  return `<section id="not-exercised" class="block"><h2>Not exercised</h2>
${recorded.length ? `<table><thead><tr><th>Endpoint</th><th class="num">Recorded</th><th>Not compared</th></tr></thead><tbody>${recorded.map((e) => `<tr data-endpoint="${esc(e.path)}"><td><code>/v1${esc(e.path)}</code></td><td class="num">${e.recorded}</td><td>${esc(reasons(e))}</td></tr>`).join('\n')}</tbody></table>` : ''}
${never.length ? `<details id="never-recorded"><summary>${never.length === 1 ? '1 endpoint' : `${never.length} endpoints`} never called in this recording</summary><p>${never.map((e) => `<code>/v1${esc(e.path)}</code>`).join(' ')}</p></details>` : ''}
</section>`;
}

/** A value as shown: JSON, cut at 400 characters; `(absent)` when the side has no such field. */
function show(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value);
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}

const esc = escapeHtml;
