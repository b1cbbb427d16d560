import { REPORT_CSS } from '../shared/report-style.js';

/**
 * The status page: plain HTML, CSS and a little JS, no build step and no external asset, so it
 * works on an air-gapped host. It polls /status/data every two seconds (passing on `?token=` when
 * the page was opened with one), derives calls per second and the error rate from the change in
 * the counters between two polls, draws the history as inline SVG sparklines, and colours each
 * number by the thresholds the data carries. Everything shown is set with textContent: section
 * text from other parts is data, never markup.
 */
export const STATUS_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>v1gate status</title>
<link rel="icon" href="data:,">
<style>${REPORT_CSS}
  .card svg.spark { max-width: none; }
  td.codes { font-size: .85rem; color: var(--muted); }
  td.spark-cell { width: 140px; }
  #dead-letters table { margin-top: .5rem; }
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
</div>
<h2>Last 15 minutes</h2>
<div class="cards" id="history">
  <div class="card"><div class="label">Calls / s</div><div class="value" id="rate">–</div><svg class="spark" id="spark-calls" viewBox="0 0 100 28" preserveAspectRatio="none"></svg></div>
  <div class="card"><div class="label">Error rate</div><div class="value" id="error-rate">–</div><svg class="spark" id="spark-errors" viewBox="0 0 100 28" preserveAspectRatio="none"></svg></div>
  <div class="card"><div class="label">Unavailable (v2)</div><div class="value" id="unavailable-rate">–</div><svg class="spark" id="spark-unavailable" viewBox="0 0 100 28" preserveAspectRatio="none"></svg></div>
  <div class="card"><div class="label">p99</div><div class="value" id="p99">–</div><svg class="spark" id="spark-p99" viewBox="0 0 100 28" preserveAspectRatio="none"></svg></div>
  <div class="card"><div class="label">v2 calls / s</div><div class="value" id="v2-rate">–</div><svg class="spark" id="spark-v2" viewBox="0 0 100 28" preserveAspectRatio="none"></svg></div>
  <div class="card"><div class="label">Refused by limits</div><div class="value" id="refusals">–</div><svg class="spark" id="spark-refusals" viewBox="0 0 100 28" preserveAspectRatio="none"></svg></div>
</div>
<p class="muted" id="history-note"></p>
<h2>Limits, notifications, shadow mode</h2>
<div class="panels" id="sections"></div>
<div id="dead-letters" hidden>
  <h2>Dead letters</h2>
  <p class="muted" id="dead-letters-note"></p>
  <table><thead><tr><th>Notification</th><th>Receiver</th><th class="num">Attempts</th><th>Last error</th><th>Created</th><th></th></tr></thead><tbody></tbody></table>
</div>
<h2>v1 endpoints</h2>
<table id="endpoints"><thead><tr><th>Endpoint</th><th class="num">Calls</th><th class="num">Errors</th><th class="num">Error rate</th><th>Errors by v1 code</th><th class="num">p99</th><th>Last 15 min</th></tr></thead><tbody></tbody></table>
<h2>v2 routes</h2>
<table id="routes"><thead><tr><th>Route</th><th>Method</th><th class="num">Calls</th><th class="num">4XX</th><th class="num">No answer or 5XX</th><th class="num">p99</th></tr></thead><tbody></tbody></table>
<h2>Coverage</h2>
<p id="coverage" class="muted"></p>
<p class="muted">Updated <span id="updated">never</span>. The same numbers are at <code>/metrics</code>.</p>
<script>
(() => {
  const token = new URLSearchParams(location.search).get('token');
  // The data and the replays are below the page's own path, the status prefix, wherever the
  // route table puts it: a path relative to the page would assume the prefix ends in "status".
  const below = location.pathname.endsWith('/') ? location.pathname : location.pathname + '/';
  const withToken = (path) => below + path + (token ? '?token=' + encodeURIComponent(token) : '');
  const $ = (id) => document.getElementById(id);
  const SVG = 'http://www.w3.org/2000/svg';
  let previous;
  let latest;
  const duration = (s) => {
    const d = Math.floor(s / 86400), h = Math.floor(s / 3600) % 24, m = Math.floor(s / 60) % 60;
    return (d ? d + 'd ' : '') + (d || h ? h + 'h ' : '') + m + 'm ' + (s % 60) + 's';
  };
  const levelOf = (value, t) => value === undefined || value === null || Number.isNaN(value) ? 'idle' : value >= t.bad ? 'bad' : value >= t.warn ? 'warn' : 'ok';
  // setAttribute, not className: an SVG element's className is not a string.
  const setLevel = (el, level, base) => el.setAttribute('class', (base ? base + ' ' : '') + 'level-' + level);
  const percent = (ratio) => (100 * ratio).toFixed(1) + ' %';
  const ms = (seconds) => seconds === null || seconds === undefined ? '–' : (seconds * 1000).toFixed(1) + ' ms';
  const state = (el, check) => { el.textContent = check.ok ? 'ok' : 'down'; el.title = check.detail; setLevel(el, check.ok ? 'ok' : 'bad', 'value'); };
  const cell = (row, text, className) => { const td = row.insertCell(); td.textContent = text; if (className) td.className = className; return td; };

  /** One polyline per series, scaled together to the box; gaps (null) are drawn as 0. */
  function sparkline(svg, series, level) {
    svg.replaceChildren();
    if (level) setLevel(svg, level, 'spark');
    const all = series.flatMap((s) => s.values.map((v) => v || 0));
    const top = Math.max(...all, 0) || 1;
    for (const s of series) {
      if (s.values.length === 0) continue;
      const step = s.values.length > 1 ? 100 / (s.values.length - 1) : 0;
      const line = document.createElementNS(SVG, 'polyline');
      line.setAttribute('points', s.values.map((v, i) => (i * step).toFixed(2) + ',' + (27 - (26 * (v || 0)) / top).toFixed(2)).join(' ') + (s.values.length === 1 ? ' 100,' + (27 - (26 * (s.values[0] || 0)) / top).toFixed(2) : ''));
      if (s.className) line.setAttribute('class', s.className);
      svg.append(line);
    }
    svg.dataset.points = String(series[0] ? series[0].values.length : 0);
  }

  function renderHistory(data) {
    const points = data.history.points;
    const perSecond = (key) => points.map((p) => p.seconds > 0 ? p[key] / p.seconds : 0);
    const ratio = (key) => points.map((p) => p.calls > 0 ? p[key] / p.calls : 0);
    const last = (values) => values.length ? values[values.length - 1] : undefined;
    sparkline($('spark-calls'), [{ values: perSecond('calls') }], 'ok');
    const errors = ratio('errors');
    sparkline($('spark-errors'), [{ values: errors }], levelOf(Math.max(0, ...errors), data.thresholds.errorRatio));
    const unavailable = ratio('unavailable');
    sparkline($('spark-unavailable'), [{ values: unavailable }], levelOf(Math.max(0, ...unavailable), data.thresholds.unavailableRatio));
    const p99 = points.map((p) => p.p99Seconds);
    sparkline($('spark-p99'), [{ values: p99 }], levelOf(Math.max(0, ...p99.map((v) => v || 0)), data.thresholds.p99Seconds));
    sparkline($('spark-v2'), [{ values: perSecond('v2Calls') }], 'ok');
    const refusals = points.map((p) => p.refusals);
    sparkline($('spark-refusals'), [{ values: refusals }], refusals.some((n) => n > 0) ? 'warn' : 'ok');
    const lastP99 = last(p99);
    $('p99').textContent = ms(lastP99);
    setLevel($('p99'), levelOf(lastP99, data.thresholds.p99Seconds), 'value');
    const lastRefusals = last(refusals);
    $('refusals').textContent = lastRefusals === undefined ? '–' : String(lastRefusals);
    setLevel($('refusals'), lastRefusals ? 'warn' : 'ok', 'value');
    $('history-note').textContent = points.length
      ? points.length + ' points, one every ' + data.history.stepSeconds + ' s; the values are those of the last point, calls/s and error rates those since the last poll.'
      : 'The history takes its first point ' + data.history.stepSeconds + ' s after start.';
  }

  function renderLive(data) {
    if (!previous) return;
    const seconds = (Date.parse(data.now) - Date.parse(previous.now)) / 1000;
    const calls = data.totals.calls - previous.totals.calls;
    const v2 = data.totals.v2Calls - previous.totals.v2Calls;
    $('rate').textContent = seconds > 0 ? (calls / seconds).toFixed(1) : '0.0';
    $('v2-rate').textContent = seconds > 0 ? (v2 / seconds).toFixed(1) : '0.0';
    // With no calls since the last poll the rates keep their last value: an idle second is not a recovery.
    if (calls > 0) {
      const errorRatio = (data.totals.errors - previous.totals.errors) / calls;
      const unavailable = (data.totals.unavailable - previous.totals.unavailable) / calls;
      $('error-rate').textContent = percent(errorRatio);
      setLevel($('error-rate'), levelOf(errorRatio, data.thresholds.errorRatio), 'value');
      $('unavailable-rate').textContent = percent(unavailable);
      setLevel($('unavailable-rate'), levelOf(unavailable, data.thresholds.unavailableRatio), 'value');
    } else if ($('error-rate').textContent === '–') {
      $('error-rate').textContent = percent(0);
      $('unavailable-rate').textContent = percent(0);
    }
  }

  function renderSections(data) {
    const panels = $('sections');
    panels.replaceChildren();
    const sections = data.sections.slice();
    if (!data.shadowMode) sections.push({ id: 'shadow', title: 'Shadow mode', level: 'idle', summary: 'Off: set V1_PRIMARY_URL to compare v1gate with the real v1 before cutting over.', rows: [] });
    for (const section of sections) {
      const panel = document.createElement('section');
      panel.className = 'panel';
      panel.dataset.section = section.id;
      const title = document.createElement('h3');
      const badge = document.createElement('span');
      badge.className = 'badge level-' + section.level;
      badge.textContent = { ok: 'ok', warn: 'attention', bad: 'action needed', idle: 'idle' }[section.level] || section.level;
      title.append(section.title + ' ', badge);
      const summary = document.createElement('p');
      summary.className = 'summary level-' + section.level;
      summary.textContent = section.summary;
      const list = document.createElement('dl');
      for (const row of section.rows) {
        const dt = document.createElement('dt');
        dt.textContent = row.label;
        const dd = document.createElement('dd');
        dd.textContent = row.value;
        if (row.level && row.level !== 'ok') dd.className = 'level-' + row.level;
        list.append(dt, dd);
      }
      panel.append(title, summary, list);
      panels.append(panel);
    }
  }

  async function replay(id, button, status) {
    button.disabled = true;
    status.textContent = 'replaying…';
    try {
      const response = await fetch(withToken('dead-letters/' + encodeURIComponent(id) + '/replay'), {
        method: 'POST',
        headers: { 'x-v1gate-csrf': latest.csrf },
        cache: 'no-store',
      });
      const body = await response.json();
      status.textContent = response.ok ? 'handed back for delivery' : body.error;
    } catch (error) {
      status.textContent = 'failed: ' + error.message;
      button.disabled = false;
    }
  }

  function renderDeadLetters(data) {
    const box = $('dead-letters');
    const dead = data.deadLetters;
    box.hidden = !dead || dead.total === 0;
    if (box.hidden) return;
    $('dead-letters-note').textContent = dead.total + ' given up after every attempt' + (dead.total > dead.shown.length ? ', the newest ' + dead.shown.length + ' shown' : '') +
      '. Replay hands one back to the dispatcher for a fresh set of attempts.';
    const body = box.querySelector('tbody');
    const kept = new Map([...body.rows].map((row) => [row.dataset.id, row]));
    body.replaceChildren();
    for (const letter of dead.shown) {
      // A row whose replay is under way keeps its button state and message.
      const old = kept.get(letter.id);
      if (old && old.querySelector('button').disabled) { body.append(old); continue; }
      const row = body.insertRow();
      row.dataset.id = letter.id;
      cell(row, letter.id);
      cell(row, letter.receiver);
      cell(row, String(letter.attempts), 'num');
      cell(row, letter.lastError || '–', 'level-bad');
      cell(row, new Date(letter.createdAt).toLocaleString());
      const actions = row.insertCell();
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = 'Replay';
      const status = document.createElement('span');
      status.className = 'muted replay-status';
      button.addEventListener('click', () => replay(letter.id, button, status));
      actions.append(button, ' ', status);
    }
  }

  function renderTables(data) {
    const points = data.history.points;
    const endpoints = $('endpoints').tBodies[0];
    endpoints.replaceChildren();
    for (const e of data.endpoints) {
      const row = endpoints.insertRow();
      row.dataset.endpoint = e.endpoint;
      cell(row, e.endpoint);
      cell(row, String(e.calls), 'num');
      cell(row, String(e.errors), 'num');
      const ratio = e.calls ? e.errors / e.calls : undefined;
      cell(row, ratio === undefined ? '–' : percent(ratio), 'num level-' + levelOf(ratio, data.thresholds.errorRatio));
      cell(row, e.codes.map((c) => c.code + ' × ' + c.calls).join(', ') || '–', 'codes');
      cell(row, ms(e.p99Seconds), 'num level-' + levelOf(e.p99Seconds, data.thresholds.p99Seconds));
      const spark = row.insertCell();
      spark.className = 'spark-cell';
      const svg = document.createElementNS(SVG, 'svg');
      svg.setAttribute('viewBox', '0 0 100 28');
      svg.setAttribute('preserveAspectRatio', 'none');
      spark.append(svg);
      const mine = points.map((p) => p.endpoints[e.endpoint] || { calls: 0, errors: 0 });
      sparkline(svg, [{ values: mine.map((p) => p.calls) }, { values: mine.map((p) => p.errors), className: 'errors' }], 'idle');
    }
    const routes = $('routes').tBodies[0];
    routes.replaceChildren();
    for (const r of data.routes) {
      const row = routes.insertRow();
      row.dataset.route = r.method + ' ' + r.route;
      cell(row, r.route);
      cell(row, r.method);
      cell(row, String(r.calls), 'num');
      cell(row, String(r.clientErrors), 'num');
      cell(row, String(r.failures), 'num level-' + (r.failures ? levelOf(r.failures / r.calls, data.thresholds.unavailableRatio) : 'ok'));
      cell(row, ms(r.p99Seconds), 'num level-' + levelOf(r.p99Seconds, data.thresholds.p99Seconds));
    }
  }

  function render(data) {
    latest = data;
    $('version').textContent = 'v' + data.version;
    $('uptime').textContent = duration(data.uptimeSeconds);
    state($('ready'), { ok: data.ready, detail: data.ready ? 'ready' : 'not ready' });
    state($('upstream'), data.upstream);
    state($('redis'), data.redis);
    if (!data.redisConfigured) $('redis').textContent = 'in memory';
    $('total-calls').textContent = data.totals.calls;
    renderLive(data);
    renderHistory(data);
    renderSections(data);
    renderDeadLetters(data);
    renderTables(data);
    const c = data.coverage;
    $('coverage').textContent = c.specServed + ' of ' + c.specTotal + ' spec endpoints served (' + c.referenceServed + ' of ' + c.referenceTotal +
      ' reference paths); fields: ' + c.fields.mapped + ' mapped, ' + c.fields.approximated + ' approximated, ' + c.fields.dropped + ' dropped.';
    $('updated').textContent = new Date(data.now).toLocaleTimeString();
    previous = data;
  }

  async function poll() {
    try {
      const response = await fetch(withToken('data'), { cache: 'no-store' });
      if (response.ok) render(await response.json());
    } finally {
      setTimeout(poll, 2000);
    }
  }
  poll();
})();
</script>
</body>
</html>
`;
