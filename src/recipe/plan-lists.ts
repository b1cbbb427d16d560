import { z } from 'zod';
import { fieldsOf } from '../translators/kit/answer-shape.js';
import { V2_ANSWERS } from '../translators/kit/v2-answers/table.js';

/**
 * The list shape of a v2 answer, read from the route's declared answer schema (the one the
 * translators read it through): the array of its items, and whether it pages by next_page_token.
 */

export interface ListShape {
  /** The field holding the items: `users`, `meetings`. */
  items: string;
  /** Whether the answer carries a next page's token: a list read page by page. */
  paged: boolean;
  /** The other fields the schema declares (`total_records`, a report's totals). */
  fields: string[];
}

const unwrapped = (type: unknown): unknown => {
  let inner = type;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable || inner instanceof z.ZodDefault) inner = inner.unwrap();
  return inner;
};

/** The list shape of the route's answer; undefined where it holds no array, or more than one. */
export function listShapeOf(routeName: string): ListShape | undefined {
  const fields = fieldsOf((V2_ANSWERS as Readonly<Record<string, unknown>>)[routeName]);
  if (!fields) return undefined;
  const arrays = Object.keys(fields).filter((name) => unwrapped(fields[name]) instanceof z.ZodArray);
  if (arrays.length !== 1) return undefined;
  return {
    items: arrays[0]!,
    paged: 'next_page_token' in fields,
    fields: Object.keys(fields).filter((name) => name !== arrays[0]),
  };
}
