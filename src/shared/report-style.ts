/**
 * The one look of v1gate's HTML pages for people (the status page, the compare report): plain
 * CSS with no external asset, so a page works on an air-gapped host and can be saved as one file.
 * Levels are classes, `level-ok`, `level-warn`, `level-bad`, `level-idle`, on text or on a
 * sparkline's SVG (which draws in `currentColor`), so every page says good and bad in the same
 * colours.
 */
export const REPORT_CSS = `
  :root {
    --ink: #1d2733; --muted: #5b6b7c; --paper: #f5f7fa; --card: #fff; --rule: #e6eaf0; --head: #eef2f6;
    --ok: #137333; --warn: #b06000; --bad: #b3261e; --idle: #5b6b7c;
    font-family: system-ui, sans-serif; color: var(--ink); background: var(--paper);
  }
  body { margin: 0 auto; max-width: 1200px; padding: 1.5rem; }
  h1 { font-size: 1.4rem; margin: 0 0 1rem; }
  h2 { font-size: 1.05rem; margin: 1.75rem 0 .5rem; }
  h3 { font-size: .95rem; margin: 0 0 .25rem; }
  code { font-size: .85em; word-break: break-all; }
  .muted { color: var(--muted); font-size: .85rem; }
  .cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(160px, 1fr)); gap: .75rem; }
  .card, .panel { background: var(--card); border-radius: 8px; padding: .75rem 1rem; box-shadow: 0 1px 2px #0001; }
  .card .label { font-size: .75rem; text-transform: uppercase; color: var(--muted); }
  .card .value { font-size: 1.35rem; font-variant-numeric: tabular-nums; margin-top: .25rem; }
  .panels { display: grid; grid-template-columns: repeat(auto-fit, minmax(340px, 1fr)); gap: .75rem; }
  .panel dl { display: grid; grid-template-columns: 1fr auto; gap: .2rem 1rem; margin: .5rem 0 0; font-size: .9rem; }
  .panel dt { color: var(--muted); }
  .panel dd { margin: 0; text-align: right; font-variant-numeric: tabular-nums; }
  table { width: 100%; border-collapse: collapse; background: var(--card); border-radius: 8px; overflow: hidden; box-shadow: 0 1px 2px #0001; }
  th, td { text-align: left; padding: .4rem .75rem; border-bottom: 1px solid var(--rule); font-variant-numeric: tabular-nums; vertical-align: middle; }
  th { background: var(--head); font-weight: 600; font-size: .85rem; }
  td.num, th.num { text-align: right; }
  .level-ok { color: var(--ok); } .level-warn { color: var(--warn); } .level-bad { color: var(--bad); } .level-idle { color: var(--idle); }
  .badge { display: inline-block; padding: 0 .45rem; border-radius: 999px; font-size: .75rem; font-weight: 600; border: 1px solid currentColor; }
  svg.spark { display: block; width: 100%; max-width: 160px; height: 28px; margin-top: .3rem; overflow: visible; }
  svg.spark polyline { fill: none; stroke: currentColor; stroke-width: 1.5; vector-effect: non-scaling-stroke; }
  svg.spark polyline.errors { stroke: var(--bad); }
  button { font: inherit; font-size: .85rem; padding: .2rem .7rem; border-radius: 6px; border: 1px solid var(--rule); background: var(--head); cursor: pointer; }
  button:disabled { cursor: default; opacity: .6; }
`;

/** Text made safe inside an HTML element or a quoted attribute: the one escape the report pages use. */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
