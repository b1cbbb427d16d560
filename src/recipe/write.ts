import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { recipeHtml } from './html.js';
import { integrationMarkdown } from './markdown.js';
import type { Recipe } from './recipe.js';

/** A recipe's files in `dir`: recipe.json, one `<integration>.md` each, and index.html; each readable by its owner only, like every file v1gate writes. */
export function writeRecipe(recipe: Recipe, dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const files: [string, string][] = [
    ['recipe.json', `${JSON.stringify(recipe, null, 2)}\n`],
    ...recipe.integrations.map((i): [string, string] => [`${i.integration}.md`, integrationMarkdown(i, recipe)]),
    ['index.html', recipeHtml(recipe)],
  ];
  return files.map(([name, text]) => {
    const file = join(dir, name);
    writeFileSync(file, text, { mode: 0o600 });
    chmodSync(file, 0o600);
    return file;
  });
}
