import type { AnswerField, Condition, EndpointPlan, PlannedStep, Source } from './plan-schema.js';

/** An endpoint's plan in words: each step with when it runs and where each value comes from, the reverse map, and what it cannot express. */

export function conditionText(when: Condition): string {
  switch (when.kind) {
    case 'always':
      return when.times === 1 ? 'always' : `always, ${when.times} times`;
    case 'given':
      return `only when \`${when.param}\` is given`;
    case 'absent':
      return `only when \`${when.param}\` is left out`;
    case 'per-item':
      return `once per item of \`${when.param}\``;
    case 'rollback':
      return 'only to undo, when a later step fails';
    case 'per-list-item':
      return `once per item of step ${when.step + 1}'s list (each item read in full)`;
    default:
      return `not run by the recipe: ${when.why}`;
  }
}

export function sourceText(source: Source): string {
  switch (source.from) {
    case 'param':
      return `v1 \`${source.param}\`${source.default === undefined ? '' : ` (default ${source.default})`}`;
    case 'item':
      return `each item of v1 \`${source.param}\``;
    case 'step':
      return `\`${source.field}\` of step ${source.step + 1}'s answer`;
    case 'paging':
      return "the previous page's `next_page_token` (none on the first)";
    case 'list-item':
      return `\`${source.field}\` of the list's current item`;
    default:
      return `the constant \`${JSON.stringify(source.value)}\``;
  }
}

function stepLines(step: PlannedStep, i: number): string[] {
  const values = Object.entries(step.pathParams).map(([name, source]) => `\`{${name}}\` ← ${sourceText(source)}`);
  const lines = [`${i + 1}. \`${step.method} ${step.path}\`: ${conditionText(step.when)}${values.length ? `; ${values.join(', ')}` : ''}`];
  if (step.body)
    for (const field of step.body)
      lines.push(
        `   - body \`${field.v2}\` ← v1 \`${field.v1}\` (${field.as}${field.codec.kind === 'same' ? '' : `, ${field.codec.kind === 'code' ? field.codec.name : field.codec.kind}`}${field.default === undefined ? '' : `, default ${JSON.stringify(field.default)}`}), when given`,
      );
  for (const [name, source] of Object.entries(step.query ?? {})) lines.push(`   - query \`${name}\` ← ${sourceText(source)}`);
  if (step.pages)
    lines.push(
      `   - read page by page by \`next_page_token\`: ${step.pages.until === 'v1-page' ? "to v1's page number (v2 pages of v1's page size)" : "every page, v1's page cut from all the items"}; the items are \`${step.pages.items}\``,
    );
  if (step.pages?.keep)
    lines.push(
      `   - v1's list keeps only the items, each read in full, that this rule keeps (then its page is cut): \`${JSON.stringify(step.pages.keep)}\``,
    );
  return lines;
}

function answerText(field: AnswerField): string {
  const source = field.source;
  switch (source.from) {
    case 'v2':
      return `v2 \`${source.v2}\``;
    case 'param':
      return sourceText(source);
    case 'paging':
      return `the paged list's ${source.field === 'page_count' ? 'total_records / page_size, rounded up' : `\`${source.field}\``}`;
    default:
      return `each of the paged list's \`${source.v2}\`: ${source.fields.map((f) => `\`${f.v1}\` ← \`${f.v2}\``).join(', ')}`;
  }
}

export function planLines(plan: EndpointPlan): string[] {
  const lines = ['**The steps as a program runs them** (recipe.json `plan`):', '', ...plan.steps.flatMap(stepLines), ''];
  if (plan.answer.length) lines.push(`The v1 answer: ${plan.answer.map((a) => `\`${a.v1}\` ← ${answerText(a)}`).join(', ')}.`, '');
  if (plan.answerComputed.length)
    lines.push(`Computed by the translator, not by a row: ${plan.answerComputed.map((f) => `\`${f}\``).join(', ')}.`, '');
  if (plan.errors.length)
    lines.push(
      '**The v1 errors it can answer**, and the v2 errors behind each:',
      '',
      ...plan.errors.map(
        (e) =>
          `- ${e.code} \`${e.message}\` ← ${e.behind.map((b) => `${b.status === 0 ? 'no answer' : b.status}${b.code === undefined ? '' : ` ${b.code}`} (${b.route})`).join(', ')}`,
      ),
      '',
    );
  if (plan.cannotExpress.length) lines.push('**What this recipe cannot express**', '', ...plan.cannotExpress.map((why) => `- ${why}`), '');
  return lines;
}
