import type { CompareReport } from './compare.js';

/** A self-contained HTML page of a compare report: per endpoint, per field, examples side by side. */
export function renderHtmlReport(report: CompareReport): string {
  const sections = report.endpoints
    .map((endpoint) => {
      const rows = endpoint.fields
        .map(
          (f) => `<tr class="${f.noise ? 'noise' : 'real'}"><td><code>${esc(f.field)}</code></td><td>${f.kind}</td><td>${f.count}</td>
<td>${f.noise ? `noise: ${esc(f.noise)}` : '<b>real</b>'}</td><td>${esc(f.why)}</td>
<td>${f.examples.map((x) => `<div class="ex"><span>A</span> <code>${esc(show(x.a))}</code><br><span>B</span> <code>${esc(show(x.b))}</code></div>`).join('')}</td></tr>`,
        )
        .join('\n');
      return `<section><h2><code>/v1${esc(endpoint.path)}</code> — ${endpoint.differing} of ${endpoint.calls} calls differ</h2>
${endpoint.fields.length ? `<table><thead><tr><th>field</th><th>kind</th><th>count</th><th>verdict</th><th>mapping</th><th>examples</th></tr></thead><tbody>${rows}</tbody></table>` : '<p>Identical answers.</p>'}
</section>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>v1 compare: ${esc(report.a)} vs ${esc(report.b)}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#222}
table{border-collapse:collapse;width:100%;margin-bottom:1rem}td,th{border:1px solid #ccc;padding:4px 6px;vertical-align:top;text-align:left}
tr.real{background:#fff1f0}tr.noise{color:#777}.ex{margin-bottom:4px}.ex span{font-weight:bold}code{word-break:break-all}
</style></head><body>
<h1>v1 compare</h1>
<p>A: <code>${esc(report.a)}</code> · B: <code>${esc(report.b)}</code></p>
<p>${report.calls} calls replayed (${report.skipped_writes} writes skipped${report.skipped_limited ? `, ${report.skipped_limited} refused by one side's rate limits and not compared` : ''}); <b>${report.differing_calls}</b> with real differences.</p>
${sections}
</body></html>
`;
}

const show = (value: unknown) => (value === undefined ? '(absent)' : JSON.stringify(value));
const esc = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
