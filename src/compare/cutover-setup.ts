import { ConfigError } from '../shared/env.js';
import { canonicalPath } from '../translators/kit/registry.js';
import { Cutover } from './cutover.js';
import { fileCutoverStore, redisCutoverStore, type CutoverStore } from './cutover-store.js';
import type { EndpointFacts } from './endpoint-facts.js';

export interface CutoverSettings {
  primaryUrl: string;
  promoteAfter: number;
  /** v1 paths as configured (`meeting/create`, `/v1/meeting/create`). */
  serveWrites: readonly string[];
  stateFile: string | undefined;
  /** REDIS_URL: the states are kept there when it is set. */
  redisUrl: string | undefined;
}

/**
 * Shadow mode's cut-over as configured: SHADOW_SERVE_WRITES checked against the endpoints (each
 * must be a write v1gate serves: reads are promoted by their results, never by name), and the
 * states kept in Redis when REDIS_URL is set, else in SHADOW_STATE_FILE, else in memory only.
 */
export function configuredCutover(settings: CutoverSettings, facts: Pick<EndpointFacts, 'isRead' | 'serves'>): Cutover {
  const served = new Set(facts.serves);
  const serveWrites = new Set<string>();
  const problems: string[] = [];
  for (const path of settings.serveWrites) {
    const endpoint = canonicalPath(path.startsWith('/') ? path : `/${path}`);
    if (!served.has(endpoint)) problems.push(`${path} is not an endpoint v1gate serves`);
    else if (facts.isRead(endpoint)) problems.push(`${path} is a read: reads are promoted by SHADOW_PROMOTE_AFTER, never by name`);
    else serveWrites.add(endpoint);
  }
  if (problems.length) throw new ConfigError(problems.map((message) => ({ variable: 'SHADOW_SERVE_WRITES', message })));
  const primary = new URL(settings.primaryUrl);
  let store: CutoverStore | undefined;
  if (settings.redisUrl) store = redisCutoverStore(settings.redisUrl);
  else if (settings.stateFile) store = fileCutoverStore(settings.stateFile);
  return new Cutover({
    primary: primary.origin + primary.pathname.replace(/\/+$/, ''),
    promoteAfter: settings.promoteAfter,
    serveWrites,
    isRead: facts.isRead,
    serves: (path) => served.has(path),
    store,
  });
}
