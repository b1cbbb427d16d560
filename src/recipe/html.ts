import { REPORT_CSS, escapeHtml as esc } from '../shared/report-style.js';
import { busiestCategory, routesOf, type IntegrationRecipe, type Recipe } from './recipe.js';

/**
 * The overview of a recipe as one self-contained page, in the compare report's style: each
 * integration with its busiest category against the plan, the v2 routes its new app will call, and
 * its endpoints by volume, each linking to the integration's own Markdown page.
 */

const loadLevel = (load: number) => (load > 1 ? 'level-bad' : load > 0.8 ? 'level-warn' : 'level-ok');

/** Each category's busiest window against the plan's budget: where the headroom is. */
function categoriesTable(integration: IntegrationRecipe): string {
  const rows = [...integration.categories]
    .sort((a, b) => b.load - a.load)
    .map(
      (c) =>
        `<tr data-category="${esc(c.category)}"><td>${esc(c.category)}</td><td class="num">${c.v2Calls}</td><td class="num">${c.peak}</td><td class="num">${c.limit}</td><td class="num ${loadLevel(c.load)}">${Math.round(c.load * 100)}%</td></tr>`,
    )
    .join('');
  return `<table class="categories"><thead><tr><th>category</th><th>v2 calls</th><th>busiest window</th><th>limit</th><th>load</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** What to change first: a category the peak would overrun, then the endpoints the recipe leaves to hand work, busiest first. */
function firstSteps(integration: IntegrationRecipe): string {
  const items: string[] = [];
  const busiest = busiestCategory(integration);
  if (busiest && busiest.load > 0.8)
    items.push(
      `Spread the ${esc(busiest.category)} calls: their busiest window holds ${busiest.peak} of the ${busiest.limit} the plan allows.`,
    );
  for (const endpoint of integration.endpoints) {
    if (!endpoint.declared) items.push(`<code>/v1${esc(endpoint.path)}</code>: not served by v1gate, nothing to translate from.`);
    else if (endpoint.plan?.cannotExpress.length)
      items.push(`<code>/v1${esc(endpoint.path)}</code> by hand: ${esc(endpoint.plan.cannotExpress[0]!)}`);
  }
  const planned = integration.endpoints.find((e) => e.plan && e.plan.cannotExpress.length === 0);
  if (planned) items.push(`Then the endpoints the recipe plans in full, busiest first: <code>/v1${esc(planned.path)}</code>.`);
  return `<ol class="first">${items.map((item) => `<li>${item}</li>`).join('')}</ol>`;
}

function integrationSection(integration: IntegrationRecipe): string {
  const busiest = busiestCategory(integration);
  const busiestText = busiest
    ? `<span class="${loadLevel(busiest.load)}">${esc(busiest.category)}: ${busiest.peak} in its busiest window, of ${busiest.limit} (${Math.round(busiest.load * 100)}%)</span>`
    : 'no v2 calls recorded';
  const endpoints = integration.endpoints
    .map(
      (e) =>
        `<tr data-endpoint="${esc(e.path)}"><td><code>/v1${esc(e.path)}</code></td><td class="num">${e.calls}</td><td>${
          e.declared
            ? e.declared.steps.map((s) => `<code>${esc(s.route)}</code>`).join('<br>') || 'none'
            : '<span class="level-bad">not served</span>'
        }</td><td class="num">${e.errors.reduce((n, x) => n + x.calls, 0)}</td></tr>`,
    )
    .join('\n');
  const routes = routesOf(integration)
    .map((r) => `<li><code>${esc(r.route)}</code> <span class="muted">${esc(r.category)}</span></li>`)
    .join('');
  return `<section class="block integration" data-integration="${esc(integration.integration)}">
<h2>Integration <code>${esc(integration.integration)}</code> <a class="muted" href="${esc(integration.integration)}.md">its plan</a></h2>
<p class="muted">${integration.calls} calls to ${integration.endpoints.length} endpoints${integration.first ? `, ${esc(integration.first)} to ${esc(integration.last)}` : ''}</p>
<p class="busiest">Busiest category: ${busiestText}</p>
<p class="scopes">Scopes to give its new app: ${integration.scopes.granular.map((s) => `<code>${esc(s)}</code>`).join(' ') || 'none'}</p>
<p class="muted classic-scopes">Classic scopes, for an app of the older kind: ${integration.scopes.classic.map((s) => `<code>${esc(s)}</code>`).join(' ') || 'none'}</p>
<h3>What to change first</h3>
${firstSteps(integration)}
<h3>Categories and headroom</h3>
${categoriesTable(integration)}
<details><summary>The v2 routes its new app will call (${routesOf(integration).length})</summary><ul class="routes">${routes}</ul></details>
<table class="endpoints"><thead><tr><th>endpoint</th><th>calls</th><th>v2 calls it becomes</th><th>errors</th></tr></thead><tbody>
${endpoints}
</tbody></table>
</section>`;
}

export function recipeHtml(recipe: Recipe): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>The way out of v1: ${recipe.integrations.length} integration${recipe.integrations.length === 1 ? '' : 's'}</title>
<link rel="icon" href="data:,">
<style>${REPORT_CSS}
  section.block { margin-top: 1.75rem; }
  details { background: var(--card); border-radius: 8px; box-shadow: 0 1px 2px #0001; padding: .5rem 1rem; margin-bottom: .5rem; }
  ul.routes { columns: 2; }
</style></head><body>
<h1>The way out of v1</h1>
<p class="muted">Generated ${esc(recipe.generated_at)} from v1gate's declarations · limits of the ${esc(recipe.plan)} plan · integrations named by a hash of their api_key</p>
${recipe.integrations.map(integrationSection).join('\n')}
</body></html>
`;
}
