import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { CredentialEntry } from '../../src/upstream/auth/credential-map.js';
import { candidatesOf, provenSecretStoreOf, REDIS_VERIFIER_TTL_MS, verifierOf } from '../../src/upstream/auth/proven-secrets.js';
import { hashSecret } from '../../src/upstream/auth/secret-hash.js';
import { startRedis, type RunningRedis } from '../support/redis.js';

/**
 * The remembered pairs of mapped keys in a real redis-server: what one instance remembers another
 * finds, each verifier under its key's hash tag with an expiry, and a Redis that is gone makes a
 * lookup answer "not found" within its timeout, never an error (the pair is then hashed under the
 * budget, as without a store).
 */

let redis: RunningRedis;
let entry: CredentialEntry;
const NOW = Date.now();
const place = () => ({
  credentialsFile: '/nonexistent/credentials.json',
  redis: { url: redis.url, keyPrefix: 'proven-test:', timeoutMs: 200 },
});

beforeAll(async () => {
  redis = await startRedis();
  entry = {
    api_key: 'redis-key',
    secret_hash: await hashSecret('right'),
    previous_secrets: [],
    v2: { kind: 'oauth', account_id: 'a', client_id: 'c', client_secret: 's' },
  };
});
afterAll(async () => {
  await redis?.close();
});

describe('proven secrets in Redis', () => {
  it('what one instance remembers, another finds; a wrong secret is not found', async () => {
    const [one, other] = [provenSecretStoreOf(place()), provenSecretStoreOf(place())];
    try {
      expect(await other.find('redis-key', candidatesOf(entry, 'right', NOW))).toBeUndefined();
      await one.remember('redis-key', verifierOf(entry, 'right', Infinity));
      expect(await other.find('redis-key', candidatesOf(entry, 'right', NOW))).toEqual({
        verifier: verifierOf(entry, 'right', Infinity),
        untilMs: Infinity,
      });
      expect(await other.find('redis-key', candidatesOf(entry, 'wrong', NOW))).toBeUndefined();
    } finally {
      await Promise.all([one.close(), other.close()]);
    }
  });

  it('keeps each verifier under its key, with an expiry, and no secret in any key or value', async () => {
    const client = new Redis(redis.url);
    try {
      const keys = await client.keys('proven-test:*');
      expect(keys).toEqual([`proven-test:proven-secret:{redis-key}:${verifierOf(entry, 'right', Infinity)}`]);
      const ttl = await client.pttl(keys[0]!);
      expect(ttl).toBeGreaterThan(REDIS_VERIFIER_TTL_MS - 60_000);
      expect(ttl).toBeLessThanOrEqual(REDIS_VERIFIER_TTL_MS);
      expect(keys.join() + (await client.get(keys[0]!))).not.toContain('right');
    } finally {
      client.disconnect();
    }
  });

  it('answers "not found" when Redis is gone, and remembers nothing without failing', async () => {
    const store = provenSecretStoreOf(place());
    try {
      await redis.stop();
      expect(await store.find('redis-key', candidatesOf(entry, 'right', NOW))).toBeUndefined();
      await expect(store.remember('redis-key', verifierOf(entry, 'other', Infinity))).resolves.toBeUndefined();
    } finally {
      await store.close();
      await redis.start();
    }
  });
});
