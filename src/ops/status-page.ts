/**
 * The status page: plain HTML, CSS and a little JS, no build step and no external asset, so it
 * works on an air-gapped host. It polls /status/data once a second (passing on `?token=` when the
 * page was opened with one) and derives calls per second and the error rate from the change in
 * the counters between two polls.
 */
export const STATUS_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>v1gate status</title>
<link rel="icon" href="data:,">
<style>
  :root { font-family: system-ui, sans-serif; color: #1d2733; background: #f5f7fa; }
  body { margin: 0 auto; max-width: 1100px; padding: 1.5rem; }
  h1 { font-size: 1.4rem; margin: 0 0 1rem; }
  h2 { font-size: 1.05rem; margin: 1.5rem 0 .5rem; }
  .cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: .75rem; }
  .card { background: #fff; border-radius: 8px; padding: .75rem 1rem; box-shadow: 0 1px 2px #0001; }
  .card .label { font-size: .75rem; text-transform: uppercase; color: #5b6b7c; }
  .card .value { font-size: 1.35rem; font-variant-numeric: tabular-nums; margin-top: .25rem; }
  .ok { color: #137333; } .bad { color: #b3261e; }
  table { width: 100%; border-collapse: collapse; background: #fff; border-radius: 8px; overflow: hidden; box-shadow: 0 1px 2px #0001; }
  th, td { text-align: left; padding: .4rem .75rem; border-bottom: 1px solid #e6eaf0; font-variant-numeric: tabular-nums; }
  th { background: #eef2f6; font-weight: 600; font-size: .85rem; }
  td.num, th.num { text-align: right; }
  .muted { color: #5b6b7c; font-size: .85rem; }
</style>
</head>
<body>
<h1>v1gate <span class="muted" id="version"></span></h1>
<div class="cards">
  <div class="card"><div class="label">Uptime</div><div class="value" id="uptime">–</div></div>
  <div class="card"><div class="label">Ready</div><div class="value" id="ready">–</div></div>
  <div class="card"><div class="label">Upstream (v2)</div><div class="value" id="upstream">–</div></div>
  <div class="card"><div class="label">Redis</div><div class="value" id="redis">–</div></div>
  <div class="card"><div class="label">v1 calls</div><div class="value" id="total-calls">–</div></div>
  <div class="card"><div class="label">Calls / s</div><div class="value" id="rate">–</div></div>
  <div class="card"><div class="label">Error rate</div><div class="value" id="error-rate">–</div></div>
</div>
<h2>v1 endpoints</h2>
<table id="endpoints"><thead><tr><th>Endpoint</th><th class="num">Calls</th><th class="num">Errors</th><th class="num">p99</th></tr></thead><tbody></tbody></table>
<h2>Limiter, webhooks and shadow traffic</h2>
<div id="collectors" class="muted">No collectors registered.</div>
<h2>Coverage</h2>
<p id="coverage" class="muted"></p>
<p class="muted">Updated <span id="updated">never</span>. The same numbers are at <code>/metrics</code>.</p>
<script>
(() => {
  const token = new URLSearchParams(location.search).get('token');
  const dataUrl = 'status/data' + (token ? '?token=' + encodeURIComponent(token) : '');
  const $ = (id) => document.getElementById(id);
  let previous;
  const duration = (s) => {
    const d = Math.floor(s / 86400), h = Math.floor(s / 3600) % 24, m = Math.floor(s / 60) % 60;
    return (d ? d + 'd ' : '') + (d || h ? h + 'h ' : '') + m + 'm ' + (s % 60) + 's';
  };
  const state = (el, check) => { el.textContent = check.ok ? 'ok' : 'down'; el.title = check.detail; el.className = 'value ' + (check.ok ? 'ok' : 'bad'); };
  const cell = (row, text, numeric) => { const td = row.insertCell(); td.textContent = text; if (numeric) td.className = 'num'; };
  function render(data) {
    $('version').textContent = 'v' + data.version;
    $('uptime').textContent = duration(data.uptimeSeconds);
    state($('ready'), { ok: data.ready, detail: data.ready ? 'ready' : 'not ready' });
    state($('upstream'), data.upstream);
    state($('redis'), data.redis);
    if (!data.redisConfigured) $('redis').textContent = 'in memory';
    $('total-calls').textContent = data.totals.calls;
    if (previous) {
      const seconds = (Date.parse(data.now) - Date.parse(previous.now)) / 1000;
      const calls = data.totals.calls - previous.totals.calls;
      const errors = data.totals.errors - previous.totals.errors;
      $('rate').textContent = seconds > 0 ? (calls / seconds).toFixed(1) : '0.0';
      $('error-rate').textContent = calls > 0 ? ((100 * errors) / calls).toFixed(1) + ' %' : '0.0 %';
    }
    const body = $('endpoints').tBodies[0];
    body.replaceChildren();
    for (const e of data.endpoints) {
      const row = body.insertRow();
      row.dataset.endpoint = e.endpoint;
      cell(row, e.endpoint);
      cell(row, e.calls, true);
      cell(row, e.errors, true);
      cell(row, e.p99Seconds === null || e.p99Seconds === undefined ? '–' : (e.p99Seconds * 1000).toFixed(1) + ' ms', true);
    }
    const collectors = $('collectors');
    if (data.collectors.length) {
      collectors.replaceChildren();
      const table = document.createElement('table');
      for (const metric of data.collectors) {
        for (const v of metric.values) {
          const row = table.insertRow();
          const labels = Object.entries(v.labels).map(([k, x]) => k + '=' + x).join(', ');
          cell(row, metric.name + (labels ? ' {' + labels + '}' : ''));
          cell(row, v.value, true);
          row.title = metric.help;
        }
      }
      collectors.append(table);
    }
    const c = data.coverage;
    $('coverage').textContent = c.specServed + ' of ' + c.specTotal + ' spec endpoints served (' + c.referenceServed + ' of ' + c.referenceTotal +
      ' reference paths); fields: ' + c.fields.mapped + ' mapped, ' + c.fields.approximated + ' approximated, ' + c.fields.dropped + ' dropped.';
    $('updated').textContent = new Date(data.now).toLocaleTimeString();
    previous = data;
  }
  async function poll() {
    try {
      const response = await fetch(dataUrl, { cache: 'no-store' });
      if (response.ok) render(await response.json());
    } finally {
      setTimeout(poll, 1000);
    }
  }
  poll();
})();
</script>
</body>
</html>
`;
