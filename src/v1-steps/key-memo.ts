import { LRUCache } from 'lru-cache';

/**
 * What v1gate remembers per api_key between v1 calls, so a v1 call makes fewer v2 calls:
 *
 * - aux: reads that only feed a computed v1 field (the host's live meetings behind `status`), kept
 *   `auxTtlMs` at most and dropped as soon as the same key writes through v1gate. A read begun
 *   before a write is not kept (it may have seen the state before it). See docs/decisions.md.
 * - facts: what never changes for a key and secret (the account id behind every group answer),
 *   read once and kept, bounded; forgotten when v2 refuses the pair (a 401).
 * - page tokens: where a token-paged v2 list's pages begin (src/translators/kit/token-walk.ts),
 *   so v1's page N+1 after page N costs one v2 call: kept briefly (`PAGE_TOKENS`), bounded in
 *   entries and bytes over all pairs (a client cannot grow it, only push out older entries).
 *
 * Entries are keyed by the pair's hash, never the key alone: a caller with the right key and a
 * wrong secret gets nothing another caller's secret earned. Values must be immutable (strings,
 * numbers, frozen or copied objects): every caller shares them.
 */
export interface KeyMemoOptions {
  /** How long an aux read is kept (ms); 0 turns the aux cache off. */
  auxTtlMs: number;
  /** Keys whose aux reads are kept at once (least recently used dropped first). */
  maxKeys?: number;
  /** Aux reads kept per key: past it, the key's are dropped (they are one TTL from expiry anyway). */
  maxAuxPerKey?: number;
  /** Pairs whose facts are kept. */
  maxFactPairs?: number;
  /** Page tokens kept over all pairs, and their size (characters of key and token, as UTF-16 bytes). */
  pageTokens?: { maxEntries: number; maxBytes: number; ttlMs: number };
}

/**
 * A v2 next-page token lives 15 minutes; v1gate keeps one a minute (a list a write changed is read
 * afresh soon), at most 20,000 of them in 8 MiB over all pairs.
 */
const PAGE_TOKENS = { maxEntries: 20_000, maxBytes: 8 * 1024 * 1024, ttlMs: 60_000 };

interface KeyAux {
  /** Bumped by every write of the key: a read begun under an older generation is not kept. */
  generation: number;
  entries: Map<string, { value: unknown; expiresAt: number }>;
}

export class KeyMemo {
  private readonly aux: LRUCache<string, KeyAux>;
  private readonly facts: LRUCache<string, Map<string, unknown>>;
  private readonly maxAuxPerKey: number;
  /** `pair \0 chain \0 offset` → token. */
  private readonly pageTokens: LRUCache<string, string>;

  constructor(private readonly options: KeyMemoOptions) {
    const tokens = options.pageTokens ?? PAGE_TOKENS;
    this.pageTokens = new LRUCache({
      max: tokens.maxEntries,
      maxSize: tokens.maxBytes,
      sizeCalculation: (token, slot) => 2 * (token.length + slot.length),
      ttl: tokens.ttlMs,
    });
    this.aux = new LRUCache({ max: options.maxKeys ?? 10_000 });
    this.facts = new LRUCache({ max: options.maxFactPairs ?? 10_000 });
    this.maxAuxPerKey = options.maxAuxPerKey ?? 1_000;
  }

  /** The aux value `name` of the pair, read with `read` unless a fresh one is kept. */
  async auxRead<T>(apiKey: string, pair: string, name: string, read: () => Promise<T>): Promise<T> {
    if (this.options.auxTtlMs <= 0) return read();
    const slot = `${pair}\u0000${name}`;
    const keyAux = this.keyAux(apiKey);
    const kept = keyAux.entries.get(slot);
    const now = performance.now();
    if (kept && kept.expiresAt > now) return kept.value as T;
    const generation = keyAux.generation;
    const value = await read();
    // Kept only if no write of the key began or ended while it was read.
    if (keyAux.generation === generation && this.aux.get(apiKey) === keyAux) {
      if (keyAux.entries.size >= this.maxAuxPerKey) keyAux.entries.clear();
      keyAux.entries.set(slot, { value, expiresAt: now + this.options.auxTtlMs });
    }
    return value;
  }

  /** The fact `name` of the pair, read with `read` the first time only. */
  async fact<T>(pair: string, name: string, read: () => Promise<T>): Promise<T> {
    const known = this.facts.get(pair);
    if (known?.has(name)) return known.get(name) as T;
    const value = await read();
    let facts = this.facts.get(pair);
    if (!facts) this.facts.set(pair, (facts = new Map()));
    facts.set(name, value);
    return value;
  }

  /** The token of the page of list `chain` that starts at item `offset`, if the pair was given it lately. */
  pageToken(pair: string, chain: string, offset: number): string | undefined {
    return this.pageTokens.get(`${pair}\u0000${chain}\u0000${offset}`);
  }

  keepPageToken(pair: string, chain: string, offset: number, token: string): void {
    this.pageTokens.set(`${pair}\u0000${chain}\u0000${offset}`, token);
  }

  /** How many page tokens are kept, and their size: what the bounds hold. */
  pageTokenStats(): { entries: number; bytes: number } {
    return { entries: this.pageTokens.size, bytes: this.pageTokens.calculatedSize };
  }

  /** The key writes (called when a write is sent and when it ends): its aux reads are stale. */
  wrote(apiKey: string): void {
    const keyAux = this.aux.get(apiKey);
    if (!keyAux) return;
    keyAux.generation++;
    keyAux.entries.clear();
  }

  /** v2 refused the pair (401): forget what it was told (the key may now belong to another account). */
  refused(pair: string): void {
    this.facts.delete(pair);
  }

  private keyAux(apiKey: string): KeyAux {
    let keyAux = this.aux.get(apiKey);
    if (!keyAux) this.aux.set(apiKey, (keyAux = { generation: 0, entries: new Map() }));
    return keyAux;
  }
}
