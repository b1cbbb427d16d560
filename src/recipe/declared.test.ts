import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALL_ENDPOINTS } from '../translators/endpoints.js';
import type { EndpointDefinition } from '../translators/kit/define.js';
import type { FieldRow, FieldTable } from '../v1/field-map.js';
import { declareWrite } from '../translators/kit/write-bodies.js';
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

  it('fails against the expected recipe when one row changes, on exactly the lines of that row, until the file is updated', () => {
    const expected = readFileSync(new URL('./declared-recipes.txt', import.meta.url), 'utf8');
    const textOf = (endpoints: readonly EndpointDefinition[]) =>
      `${endpoints.map((e) => declaredRecipeText(declaredRecipe(e))).join('\n\n')}\n`;
    expect(textOf(ALL_ENDPOINTS)).toBe(expected);
    // The meeting table's topic row moved to v2 `title`, in every endpoint that reads the table.
    const table = byPath('/meeting/create').tables!.find((t) => t.some((row) => row.v1 === 'topic'))!;
    const moved: FieldTable = table.map((row) => (row.v1 === 'topic' ? { ...row, v2: 'title' } : row));
    const withMoved = ALL_ENDPOINTS.map((e) => ({ ...e, tables: e.tables?.map((t) => (t === table ? moved : t)) }));
    const changedLines = (text: string) => {
      const lines = expected.split('\n');
      return text.split('\n').filter((line, i) => line !== lines[i]);
    };
    const changed = changedLines(textOf(withMoved));
    expect(changed.length).toBeGreaterThan(0);
    for (const line of changed) expect(line).toMatch(/topic → title|title → topic/);
    // A row sent by another write: the user create's first name moved from POST /users to the PATCH after it.
    const create = byPath('/user/create');
    const [info, user, ...others] = create.v2Writes!;
    const infoRows = info!.rows.filter((row) => row.v1 !== 'first_name');
    const userRows = [...user!.rows, ...info!.rows.filter((row) => row.v1 === 'first_name')];
    const rewritten: EndpointDefinition = {
      ...create,
      v2Writes: [{ ...info!, rows: infoRows }, declareWrite({ route: user!.route, tables: [userRows] }), ...others],
    };
    const moves = changedLines(textOf(ALL_ENDPOINTS.map((e) => (e === create ? rewritten : e))));
    expect(moves.join('\n')).toMatch(/first_name → first_name/);
    expect(moves.length).toBeGreaterThan(0);
  });

  it('names each route of the definition, in its order, and its undos', () => {
    for (const endpoint of ALL_ENDPOINTS) {
      const recipe = declaredRecipe(endpoint);
      expect(recipe.steps.map((s) => s.route)).toEqual(endpoint.v2Calls.map((r) => r.name));
      expect(recipe.undo.map((s) => s.route)).toEqual((endpoint.v2Undo ?? []).map((r) => r.name));
    }
  });
});
