import { describe, expect, it } from 'vitest';
import { ALL_ENDPOINTS } from '../translators/endpoints.js';
import type { EndpointDefinition } from '../translators/kit/define.js';
import type { FieldRow } from '../v1/field-map.js';
import { declaredRecipe } from './declared.js';
import { declaredRecipeText } from './declared-text.js';

/**
 * The recipe is read from the declarations: every endpoint's recipe is held to the expected text
 * beside this test (update it with `npx vitest run src/recipe -u` when a translator or a table
 * changes on purpose), and one row changed in a table changes the recipe.
 */

const byPath = (path: string) => ALL_ENDPOINTS.find((e) => e.path === path)!;

describe('the declared recipe', () => {
  it('of every endpoint is the expected one', async () => {
    const text = `${ALL_ENDPOINTS.map((e) => declaredRecipeText(declaredRecipe(e))).join('\n\n')}\n`;
    await expect(text).toMatchFileSnapshot('./declared-recipes.txt');
  });

  it('changes when one row of a field table changes', () => {
    const endpoint = byPath('/meeting/create');
    const before = declaredRecipe(endpoint);
    const [first, ...rest] = endpoint.tables!;
    const moved: FieldRow[] = first!.map((row) => (row.v1 === 'topic' ? { ...row, v2: 'title' } : row));
    const changed: EndpointDefinition = { ...endpoint, tables: [moved, ...rest] };
    const after = declaredRecipe(changed);
    expect(after).not.toEqual(before);
    expect(after.input.find((f) => f.v1 === 'topic')?.v2).toBe('title');
    expect(before.input.find((f) => f.v1 === 'topic')?.v2).toBe('topic');
  });

  it('names each route of the definition, in its order, and its undos', () => {
    for (const endpoint of ALL_ENDPOINTS) {
      const recipe = declaredRecipe(endpoint);
      expect(recipe.steps.map((s) => s.route)).toEqual(endpoint.v2Calls.map((r) => r.name));
      expect(recipe.undo.map((s) => s.route)).toEqual((endpoint.v2Undo ?? []).map((r) => r.name));
    }
  });
});
