import { invalidParameter, missingParameter } from '../../v1/errors.js';
import { v1 } from '../../v1/param-types.js';

/**
 * v1's registrant id lists: comma-separated `registrant_ids`, which v1's own request example spells
 * `registrants_ids` (both accepted; the documented spelling wins when both are sent).
 */
const FIELD = 'registrant_ids';

/** Both spellings; `max` is v1's cap on one call, if any (a longer list is a 300 naming the field sent). */
export function registrantIdsShape(max?: number) {
  return { registrant_ids: v1.list({ max }).optional(), registrants_ids: v1.list({ max }).optional() };
}

/** The ids the call named, each once. */
export function registrantIdsOf(params: { registrant_ids?: string[] | undefined; registrants_ids?: string[] | undefined }): string[] {
  const ids = params.registrant_ids ?? params.registrants_ids;
  if (!ids) throw missingParameter(FIELD);
  return [...new Set(ids)];
}

/** Ids that name no registration of the webinar: refused whole, before any change. */
export const unknownRegistrants = (detail: string) => invalidParameter(FIELD, `${detail} Nothing was changed.`);

/** v2 takes at most 30 registrants per status change (v2 Limits). */
export const V2_BATCH = 30;
