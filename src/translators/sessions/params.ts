import type { z } from 'zod';
import { inputShape } from '../../v1/field-map.js';
import { v1, v1Params } from '../../v1/param-types.js';
import type { SessionKind } from './kinds.js';

/** The v1 params of the session calls (create, get, update, delete, end), built from the kind's option table. */

/** The type row (1/2/3/8 or 5/6/9). */
function typeRow(kind: SessionKind) {
  const row = kind.table.find((r) => r.v1 === 'type');
  if (!row?.type) throw new Error(`The ${kind.noun} option table has no type row`);
  return { parse: row.type, hasDefault: row.v1Default !== undefined };
}

const typeParam = (kind: SessionKind): z.ZodType => typeRow(kind).parse;

/** Every table field (dropped ones included: they are still checked), all optional. */
const optionShape = (kind: SessionKind): Record<string, z.ZodType> => inputShape(kind.table);

/**
 * Create: host_id and topic (max 300) are required, and `type` unless the kind's table gives it a
 * v1 default (webinars: clients create them with host_id and topic alone, docs/live-evidence.md);
 * the rest optional, v1 defaults applied later.
 */
export function createParams(kind: SessionKind, extra: Record<string, z.ZodType> = {}) {
  const type = typeRow(kind);
  return v1Params({
    ...optionShape(kind),
    host_id: v1.id(),
    topic: v1.string({ max: 300 }),
    type: type.hasDefault ? type.parse.optional() : type.parse,
    ...extra,
  });
}

/** Update: id and host_id required; everything else, `type` included, changes only when given. */
export function updateParams(kind: SessionKind, extra: Record<string, z.ZodType> = {}) {
  return v1Params({
    ...optionShape(kind),
    id: v1.id(),
    host_id: v1.id(),
    type: typeParam(kind).optional(),
    ...extra,
  });
}

/** One session of one host. */
export const sessionRefShape = { id: v1.id(), host_id: v1.id() };

/**
 * v2 error paths under the panelists array name the one v1 form field (the JSON text it was sent
 * in); those under `recurrence` name it through its table row.
 */
export const SESSION_V2_NAMING = { overrides: { panelists: 'panelists' } };
