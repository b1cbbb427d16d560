import { expect } from 'vitest';
import { ERROR_TEXTS, type ErrorTextId } from '../../mappings/error-texts.js';

/**
 * The one matcher of a v1 error against its row of the evidence table (`ERROR_TEXTS`, rendered in
 * docs/live-evidence.md): every test that brings an error text about checks it here, so a text
 * changed in the code but not in the table (or the other way round) fails wherever it is answered.
 */

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The placeholders of a row's text, `<name>` each: what a call names or v1gate states. */
export const PLACEHOLDER = /<[^>]+>/g;

/**
 * A row's text as a pattern: each placeholder the value given, or any text where v1gate states
 * its own reason (`undefined`). The number of values must be the number of placeholders.
 */
export function errorTextPattern(text: string, values: readonly (string | undefined)[]): RegExp {
  const parts = text.split(PLACEHOLDER);
  expect(values, `"${text}" has ${parts.length - 1} placeholders`).toHaveLength(parts.length - 1);
  const filled = values.map((value) => (value === undefined ? '.+' : escapeRegExp(value)));
  const source = parts.map((part, i) => escapeRegExp(part) + (filled[i] ?? '')).join('');
  return new RegExp(`^${source}$`, 's');
}

/**
 * Checks that `error` (a v1 answer's `error`) is row `id`'s code and text, placeholders filled with
 * `values`. A row whose code is `kept` (the code of the failure its text tells of) is checked
 * against `keptCode`, the code the call's failure has.
 */
export function expectErrorText(error: unknown, id: ErrorTextId, values: readonly (string | undefined)[] = [], keptCode?: number): void {
  const row: { code: number | 'kept'; text: string } = ERROR_TEXTS[id];
  const code = row.code === 'kept' ? keptCode : row.code;
  expect(code, `${id} keeps its failure's code: name it`).toBeTypeOf('number');
  expect(error, `${id} answered no error`).toMatchObject({ code });
  expect((error as { message: string }).message, id).toMatch(errorTextPattern(row.text, values));
}

/**
 * Row `id`'s text with every placeholder filled: what a test expects word for word, or the part of
 * another row's text it fills (`<what failed>`).
 */
export function errorText(id: ErrorTextId, values: readonly string[]): string {
  const text: string = ERROR_TEXTS[id].text;
  const holes = text.match(PLACEHOLDER) ?? [];
  expect(values, `"${text}" has ${holes.length} placeholders`).toHaveLength(holes.length);
  let next = 0;
  return text.replace(PLACEHOLDER, () => values[next++]!);
}
