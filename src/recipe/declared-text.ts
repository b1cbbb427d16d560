import type { V2Scopes } from '../v2-contract/v2-route.js';
import type { DeclaredRecipe, RecipeField } from './declared.js';

const scopesText = (scopes: V2Scopes | null) =>
  scopes ? ` scopes ${scopes.granular.join(' | ') || '-'} / ${scopes.classic.join(' | ') || '-'}` : ' scopes unknown';

/**
 * A declared recipe as plain lines, one fact each: the steps, the undos, the calls per call, and
 * each row both ways. What the recipe test holds the declarations to: a changed route or row
 * changes a line.
 */
export function declaredRecipeText(recipe: DeclaredRecipe): string {
  const row = (f: RecipeField, arrow: string, withDefault: boolean) =>
    `  ${arrow} ${f.how}${!withDefault || f.v1Default === undefined ? '' : ` default ${JSON.stringify(f.v1Default)}`} · ${f.home}`;
  return [
    `/v1${recipe.path}${recipe.aliases.length ? ` (also ${recipe.aliases.join(', ')})` : ''}`,
    ...recipe.steps.map((s) => `  step ${s.route} [${s.category}]${scopesText(s.scopes)}`),
    ...recipe.undo.map((s) => `  undo ${s.route} [${s.category}]${scopesText(s.scopes)}`),
    `  calls ${recipe.calls.min}/${recipe.calls.typical}/${recipe.calls.max}`,
    ...(recipe.keep ? [`  keep ${JSON.stringify(recipe.keep)}`] : []),
    ...recipe.input.map((f) => row(f, `in ${f.v1} → ${f.v2}:`, true)),
    ...recipe.output.map((f) => row(f, `out ${f.v2} → ${f.v1}:`, false)),
    ...(recipe.writes ?? []).flatMap((w) => [
      `  write ${w.route}${w.v1Defaults ? ' (v1 defaults)' : ''}${Object.keys(w.constants).length ? ` constants ${JSON.stringify(w.constants)}` : ''}`,
      ...w.fields.map((f) => row(f, `  ${f.v1} → ${f.v2}:`, false)),
    ]),
  ].join('\n');
}
