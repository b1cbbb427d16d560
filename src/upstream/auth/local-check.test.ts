import { describe, expect, it } from 'vitest';
import type { Credentials } from '../credentials.js';
import { ProofsExhausted } from '../pair-proof.js';
import { CredentialMap, type CredentialEntry } from './credential-map.js';
import { KeyNotMapped, LocalCheck, SecretRefused } from './local-check.js';
import { hashSecret } from './secret-hash.js';

const v2: CredentialEntry['v2'] = { kind: 'oauth', account_id: 'a', client_id: 'c', client_secret: 's' };

async function mapOf(secret: string): Promise<CredentialMap> {
  return new CredentialMap([{ api_key: 'k', secret_hash: await hashSecret(secret), previous_secrets: [], v2 }]);
}

describe('LocalCheck', () => {
  it('proves a mapped pair (and says whom to act as), refuses a wrong secret, and leaves unmapped keys to v2', async () => {
    const map = await mapOf('right');
    const check = new LocalCheck({ map: () => map, only: false });
    const right: Credentials = { apiKey: 'k', apiSecret: 'right' };
    expect(await check.decide(right)).toBe(true);
    expect(right.v2).toEqual({ kind: 'oauth', accountId: 'a', clientId: 'c', clientSecret: 's' });
    // Remembered: decided at once, no promise.
    expect(check.decide({ apiKey: 'k', apiSecret: 'right' })).toBe(true);
    await expect(Promise.resolve(check.decide({ apiKey: 'k', apiSecret: 'wrong' }))).rejects.toBeInstanceOf(SecretRefused);
    expect(() => check.decide({ apiKey: 'k', apiSecret: 'wrong' })).toThrow(SecretRefused);
    expect(check.decide({ apiKey: 'other', apiSecret: 'x' })).toBe(false);
    expect(check.stats()).toEqual({ refused: { wrongSecret: 2, unmappedKey: 0 }, checks: { remembered: 0, hashed: 2, overBudget: 0 } });
  });

  it('refuses unmapped keys when only mapped ones are served', async () => {
    const map = await mapOf('right');
    const check = new LocalCheck({ map: () => map, only: true });
    expect(() => check.decide({ apiKey: 'other', apiSecret: 'x' })).toThrow(KeyNotMapped);
    expect(check.stats().refused.unmappedKey).toBe(1);
  });

  it('hashes a new pair only when the budget admits it; a remembered pair needs none', async () => {
    const map = await mapOf('right');
    let left = 1;
    const check = new LocalCheck({
      map: () => map,
      only: false,
      budget: { take: () => (left-- > 0 ? { allowed: true, retryAfterMs: 0 } : { allowed: false, retryAfterMs: 1_500 }) },
    });
    expect(await check.decide({ apiKey: 'k', apiSecret: 'right' })).toBe(true);
    await expect(check.decide({ apiKey: 'k', apiSecret: 'guess' })).rejects.toMatchObject(new ProofsExhausted(1_500));
    expect(check.decide({ apiKey: 'k', apiSecret: 'right' })).toBe(true);
  });

  it('checks a pair sent many times at once once: one hash, one token of the budget, every call answered', async () => {
    let hashes = 0;
    const entry = { api_key: 'k', secret_hash: await hashSecret('right'), previous_secrets: [], v2 };
    const map = new CredentialMap([entry], {
      verifySecret: async (secret, hash) => {
        hashes++;
        const { verifySecret } = await import('./secret-hash.js');
        return verifySecret(secret, hash);
      },
    });
    let taken = 0;
    const check = new LocalCheck({
      map: () => map,
      only: false,
      budget: { take: () => (++taken <= 1 ? { allowed: true, retryAfterMs: 0 } : { allowed: false, retryAfterMs: 1_000 }) },
    });
    const calls: Credentials[] = Array.from({ length: 50 }, () => ({ apiKey: 'k', apiSecret: 'right' }));
    expect(await Promise.all(calls.map((c) => Promise.resolve(check.decide(c))))).toEqual(calls.map(() => true));
    expect(calls.every((c) => c.v2?.kind === 'oauth')).toBe(true);
    expect({ hashes, taken }).toEqual({ hashes: 1, taken: 1 });
    // Wrong secrets sent at once share one check too, and each call is refused.
    const wrong = Array.from({ length: 5 }, () => Promise.resolve(check.decide({ apiKey: 'k', apiSecret: 'guess' })));
    const settled = await Promise.allSettled(wrong);
    expect(settled.every((s) => s.status === 'rejected' && s.reason instanceof ProofsExhausted)).toBe(true);
    expect(taken).toBe(2);
  });

  it('reads the map in force at each call: a reload that drops the key leaves it to v2', async () => {
    let map: CredentialMap | undefined = await mapOf('right');
    const check = new LocalCheck({ map: () => map, only: false });
    expect(await check.decide({ apiKey: 'k', apiSecret: 'right' })).toBe(true);
    map = new CredentialMap([]);
    expect(check.decide({ apiKey: 'k', apiSecret: 'right' })).toBe(false);
    map = undefined;
    expect(check.decide({ apiKey: 'k', apiSecret: 'right' })).toBe(false);
  });
});
