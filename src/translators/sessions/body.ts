import { setPath, toV2, toV2WithDefaults } from '../../v1/field-map.js';
import type { SessionKind } from './kinds.js';

/**
 * v1 params → the v2 meeting / webinar body. A create gets v1's defaults for what it omits; an
 * update sends only what it was given (PATCH). Alternative hosts arrive in two v1 fields (emails
 * and user ids) and land in v2's one comma list, so they are merged here after the table.
 */
export function v2SessionBody(
  kind: SessionKind,
  params: Record<string, unknown>,
  { create }: { create: boolean },
): Record<string, unknown> {
  const body = create ? toV2WithDefaults(kind.table, params) : toV2(kind.table, params);
  const alternativeHosts = mergeAlternativeHosts(params['option_alternative_hosts'], params['option_alternative_host_ids']);
  if (alternativeHosts !== undefined) setPath(body, 'settings.alternative_hosts', alternativeHosts);
  return body;
}

/** Emails then ids, each once, comma-separated; undefined when the call gave neither. */
export function mergeAlternativeHosts(emails: unknown, ids: unknown): string | undefined {
  if (emails === undefined && ids === undefined) return undefined;
  const all = [emails, ids]
    .filter((v): v is string => typeof v === 'string')
    .flatMap((v) => v.split(/[,;]/))
    .map((v) => v.trim())
    .filter(Boolean);
  return [...new Set(all)].join(',');
}
