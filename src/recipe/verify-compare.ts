import { ALL_V2_ROUTES } from '../v2-contract/v2-routes.js';
import { templatePattern } from '../v2-contract/v2-route.js';

/**
 * What two sandboxes holding the same data may answer differently for the same work, and how the
 * verification reads past it: values each sandbox mints for itself (ids, uuids, links, passwords,
 * tokens) are compared by kind, times within a few minutes, everything else exactly.
 */

const MINTED = /^(id|uuid|.+_id|.+_url|.*password.*|.*token.*|pmi|host_key|created_at|updated_at|deleted_at)$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/;
const TIME_SLACK_MS = 5 * 60_000;

/** The first place two values differ, by dotted path; undefined when they agree. */
export function firstDifference(a: unknown, b: unknown, at = ''): string | undefined {
  if (a === b) return undefined;
  if (typeof a === 'string' && typeof b === 'string' && ISO_TIME.test(a) && ISO_TIME.test(b))
    return Math.abs(Date.parse(a) - Date.parse(b)) <= TIME_SLACK_MS ? undefined : at || '(value)';
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${at || '(list)'} (${a.length} items against ${b.length})`;
    for (let i = 0; i < a.length; i++) {
      const found = firstDifference(a[i], b[i], `${at}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const left = a as Record<string, unknown>;
    const right = b as Record<string, unknown>;
    for (const key of new Set([...Object.keys(left), ...Object.keys(right)])) {
      if (MINTED.test(key) && typeof left[key] === typeof right[key]) continue;
      const found = firstDifference(left[key], right[key], at ? `${at}.${key}` : key);
      if (found) return found;
    }
    return undefined;
  }
  return at || '(value)';
}

const GET_ROUTES = ALL_V2_ROUTES.filter((route) => route.method === 'GET').map((route) => templatePattern(route.template));
const readable = (path: string) => GET_ROUTES.some((pattern) => pattern.test(path));

/**
 * Where what a write changed is read back: the written path itself when v2 reads it, else the
 * nearest path above it that v2 reads; for a create, the new resource by its id.
 */
export function readBackPath(method: string, path: string, answer: unknown): string | undefined {
  if (method === 'POST') {
    const id = (answer as { id?: unknown } | null)?.id;
    if (typeof id !== 'string' && typeof id !== 'number') return undefined;
    const last = path.split('/').filter(Boolean).at(-1);
    const candidates = [`${path}/${encodeURIComponent(String(id))}`, `/${last}/${encodeURIComponent(String(id))}`];
    return candidates.find(readable);
  }
  const segments = path.split('/');
  while (segments.length > 1) {
    const candidate = segments.join('/');
    if (readable(candidate)) return candidate;
    segments.pop();
  }
  return undefined;
}
