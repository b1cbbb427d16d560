import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Redis } from 'ioredis';

/**
 * Where shadow mode's cut-over states outlive the process (cutover.ts): a JSON file
 * (`SHADOW_STATE_FILE`), or Redis when `REDIS_URL` is set (one hash, shared by every gateway on
 * that Redis). A store that cannot be read is an empty one: every endpoint starts shadowing, the
 * safe side (the primary answers).
 */
export interface StoredCutover {
  state: 'shadowing' | 'promoted';
  streak: number;
  since?: string | undefined;
  lastDifference?: { at: string; field: string } | undefined;
}

export interface StoredStates {
  /** The primary the states are about. */
  primary: string;
  endpoints: Record<string, StoredCutover>;
}

export interface CutoverStore {
  load(): Promise<StoredStates | undefined>;
  save(states: StoredStates): Promise<void>;
  close(): Promise<void>;
}

function parseStates(text: string | null | undefined): StoredStates | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as Partial<StoredStates>;
    if (typeof value.primary !== 'string' || typeof value.endpoints !== 'object' || value.endpoints === null) return undefined;
    const endpoints: Record<string, StoredCutover> = {};
    for (const [endpoint, state] of Object.entries(value.endpoints)) {
      if ((state.state === 'shadowing' || state.state === 'promoted') && Number.isInteger(state.streak)) endpoints[endpoint] = state;
    }
    return { primary: value.primary, endpoints };
  } catch {
    return undefined;
  }
}

/** The states in one JSON file, replaced whole at each save (written beside it, then renamed: never half a file). */
export function fileCutoverStore(file: string): CutoverStore {
  return {
    async load() {
      try {
        return parseStates(readFileSync(file, 'utf8'));
      } catch {
        return undefined;
      }
    },
    async save(states) {
      mkdirSync(dirname(file), { recursive: true });
      const next = `${file}.${process.pid}.tmp`;
      writeFileSync(next, `${JSON.stringify(states, null, 2)}\n`, { mode: 0o600 });
      renameSync(next, file);
    },
    close: async () => {},
  };
}

/** The key of the states in Redis. */
export const CUTOVER_REDIS_KEY = 'v1gate:shadow:cutover';

/** The states as one JSON value in Redis, so every gateway sharing it starts from the last one written. */
export function redisCutoverStore(url: string, key = CUTOVER_REDIS_KEY): CutoverStore {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2, retryStrategy: (n) => Math.min(n * 100, 1_000) });
  redis.on('error', () => {}); // reported by the calls that fail; a store that cannot be read starts every endpoint shadowing
  return {
    async load() {
      try {
        return parseStates(await redis.get(key));
      } catch {
        return undefined;
      }
    },
    async save(states) {
      await redis.set(key, JSON.stringify(states));
    },
    async close() {
      redis.disconnect();
    },
  };
}
