import type { RecipeField } from './declared.js';
import { planLines } from './plan-text.js';
import { busiestCategory, routesOf, type EndpointRecipe, type IntegrationRecipe, type Recipe } from './recipe.js';

/** One Markdown page per integration: what to ask for, what to watch, then each endpoint's plan, busiest first. */

const cell = (value: unknown) =>
  (typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value)).replace(/\|/g, '\\|').replace(/\n/g, ' ');

function fieldTable(fields: readonly RecipeField[], from: 'v1' | 'v2'): string[] {
  if (!fields.length) return ['None.', ''];
  const [a, b] = from === 'v1' ? (['v1 parameter', 'v2 field'] as const) : (['v2 field', 'v1 answer field'] as const);
  const rows = fields.map((f) => {
    const [left, right] = from === 'v1' ? [f.v1, f.v2] : [f.v2, f.v1];
    return `| \`${cell(left)}\` | \`${cell(right)}\` | ${cell(f.how)} | ${cell(f.v1Default)} | ${cell(f.note)} | ${cell(f.home)} |`;
  });
  return [`| ${a} | ${b} | how | v1 default | note | written in |`, '|---|---|---|---|---|---|', ...rows, ''];
}

function endpointSection(endpoint: EndpointRecipe): string[] {
  const lines = [`### \`/v1${endpoint.path}\`: ${endpoint.calls} call${endpoint.calls === 1 ? '' : 's'}`, ''];
  if (endpoint.params.length) lines.push(`Parameters given: ${endpoint.params.map((p) => `\`${p.name}\` (${p.calls})`).join(', ')}.`, '');
  const declared = endpoint.declared;
  if (!declared) return [...lines, 'v1gate does not serve this path: there is no v2 plan to give.', ''];
  lines.push('**The v2 calls it becomes**, as v1gate declares them:', '');
  declared.steps.forEach((step, i) => lines.push(`${i + 1}. \`${step.route}\` (${step.category}${step.reads ? '' : ', writes'})`));
  if (!declared.steps.length) lines.push('None: v1gate answers it without v2.');
  lines.push('');
  if (declared.undo.length)
    lines.push(`When a later step fails, undo the earlier writes with: ${declared.undo.map((s) => `\`${s.route}\``).join(', ')}.`, '');
  const { min, typical, max, note } = declared.calls;
  lines.push(`v2 calls per v1 call: ${min} at least, ${typical} typically, ${max} at most${note ? ` (${note})` : ''}.`, '');
  if (endpoint.sequences.some((s) => s.steps.length)) {
    lines.push('As recorded, in the order they were made:', '');
    for (const sequence of endpoint.sequences)
      lines.push(`- ${sequence.calls}×: ${sequence.steps.map((s) => `\`${s}\``).join(' → ') || 'no v2 call'}`);
    lines.push('');
  }
  if (endpoint.plan) lines.push(...planLines(endpoint.plan));
  lines.push('**v1 parameters into v2**', '', ...fieldTable(declared.input, 'v1'));
  lines.push('**v2 answers back into v1 fields**', '', ...fieldTable(declared.output, 'v2'));
  lines.push(`What no row says is computed by \`${declared.translator}\`.`, '');
  if (endpoint.errors.length) {
    lines.push('**Errors it met**', '');
    for (const error of endpoint.errors) {
      const behind = error.v2Statuses.length ? `; v2 answered ${error.v2Statuses.join(', ')}` : '; no v2 error behind it';
      lines.push(`- v1 ${error.code} "${error.message}": ${error.calls} call${error.calls === 1 ? '' : 's'}${behind}`);
    }
    lines.push('');
  }
  if (endpoint.example) {
    lines.push('**Worked example** (a recorded call; credentials from the environment)', '');
    lines.push(
      '```sh',
      '# v1, as the integration sends it',
      endpoint.example.v1Curl,
      '',
      '# v2, the calls it becomes',
      ...endpoint.example.v2Curl.flatMap((c) => [c, '']),
      '```',
      '',
    );
    lines.push('```ts', endpoint.example.typescript, '```', '');
  }
  return lines;
}

export function integrationMarkdown(integration: IntegrationRecipe, recipe: Recipe): string {
  const lines = [
    `# The way out for integration \`${integration.integration}\``,
    '',
    `${integration.calls} v1 calls recorded${integration.first ? ` from ${integration.first} to ${integration.last}` : ''}, to ${integration.endpoints.length} endpoints. Generated ${recipe.generated_at} from v1gate's declarations.`,
    '',
    '## The scopes to give its new app',
    '',
    `Granular (apps made since 2024): ${integration.scopes.granular.map((s) => `\`${s}\``).join(', ') || 'none'}.`,
    '',
    `Classic: ${integration.scopes.classic.map((s) => `\`${s}\``).join(', ') || 'none'}.`,
    '',
    ...(integration.scopes.unknown.length
      ? [`No scope known for: ${integration.scopes.unknown.map((r) => `\`${r}\``).join(', ')}.`, '']
      : []),
    '## The v2 routes its new app will call',
    '',
    ...routesOf(integration).map(
      (r) => `- \`${r.route}\` (${r.category}; ${r.scopes?.granular.join(' or ') || 'no granular scope known'})`,
    ),
    '',
    `## Rate limits (the ${recipe.plan} plan)`,
    '',
  ];
  const busiest = busiestCategory(integration);
  if (busiest)
    lines.push(
      `Busiest: ${busiest.category}, ${busiest.peak} calls in its busiest window against ${busiest.limit} (${Math.round(busiest.load * 100)}%).`,
      '',
    );
  lines.push('| category | v2 calls | busiest window | plan limit | load |', '|---|---|---|---|---|');
  for (const c of integration.categories)
    lines.push(`| ${c.category} | ${c.v2Calls} | ${c.peak} | ${c.limit} | ${Math.round(c.load * 100)}% |`);
  lines.push('');
  if (integration.unserved.length)
    lines.push(`Not served by v1gate, so not planned here: ${integration.unserved.map((p) => `\`/v1${p}\``).join(', ')}.`, '');
  lines.push('## Endpoints, busiest first', '');
  for (const endpoint of integration.endpoints) lines.push(...endpointSection(endpoint));
  return `${lines.join('\n').trimEnd()}\n`;
}
