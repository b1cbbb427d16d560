import type { z } from 'zod';
import { DROPPED_ACCOUNT_FIELDS } from '../../../mappings/account-options.js';

type DroppedName = (typeof DROPPED_ACCOUNT_FIELDS)[number]['v1'];

/** Params for v1 fields that have no v2 home: still checked (a bad value is a 300), then dropped. */
export function droppedFieldParams(names: readonly DroppedName[]): Record<string, z.ZodType> {
  return Object.fromEntries(DROPPED_ACCOUNT_FIELDS.filter((f) => names.includes(f.v1)).map((f) => [f.v1, f.type.optional()]));
}
