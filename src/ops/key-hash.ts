import { hash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/** The hashes of the keys seen lately: every logged call names its key's hash, and a busy key sends many. */
const KEY_HASHES = new LRUCache<string, string>({ max: 10_000 });

/** First 12 hex characters of SHA-256: tells keys apart on a dashboard and in logs, cannot be turned back. */
export function keyHash(apiKey: string): string {
  let hashed = KEY_HASHES.get(apiKey);
  if (hashed === undefined) KEY_HASHES.set(apiKey, (hashed = hash('sha256', apiKey, 'hex').slice(0, 12)));
  return hashed;
}
