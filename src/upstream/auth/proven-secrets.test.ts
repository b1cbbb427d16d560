import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProofsExhausted, type ProofBudget } from '../pair-proof.js';
import { CredentialMap, type CredentialEntry } from './credential-map.js';
import { LocalCheck, SecretRefused } from './local-check.js';
import { candidatesOf, FileProvenSecrets, verifierOf } from './proven-secrets.js';
import { hashSecret } from './secret-hash.js';

const v2: CredentialEntry['v2'] = { kind: 'oauth', account_id: 'a', client_id: 'c', client_secret: 's' };
const NOW = Date.parse('2026-11-26T12:00:00Z');

const storeFile = () => join(mkdtempSync(join(tmpdir(), 'v1gate-proven-')), 'credentials.json.proven');

/** A budget with nothing left: any pair that needs it is refused. */
const spent = { take: () => ({ allowed: false, retryAfterMs: 1_000 }) };

async function entryOf(secret: string, previous: { secret: string; until: string }[] = []): Promise<CredentialEntry> {
  const previous_secrets = await Promise.all(previous.map(async (p) => ({ secret_hash: await hashSecret(p.secret), until: p.until })));
  return { api_key: 'k', secret_hash: await hashSecret(secret), previous_secrets, v2 };
}

/** A process's check over `entry` (a memory of its own), with the verifiers in `file`. */
function processOver(entry: CredentialEntry, file: string, budget?: ProofBudget): LocalCheck {
  const map = new CredentialMap([entry], { now: () => NOW });
  return new LocalCheck({
    map: () => map,
    only: false,
    proven: new FileProvenSecrets(file),
    now: () => NOW,
    ...(budget ? { budget } : {}),
  });
}

describe('proven secrets of mapped keys', () => {
  it('a pair matched once is accepted by the next process without the budget; a wrong secret still needs it', async () => {
    const entry = await entryOf('right');
    const file = storeFile();
    expect(await processOver(entry, file).decide({ apiKey: 'k', apiSecret: 'right' })).toBe(true);

    // The restart: a new map (new memory), a budget with nothing left.
    const restarted = processOver(entry, file, spent);
    const owner = { apiKey: 'k', apiSecret: 'right' };
    expect(await restarted.decide(owner)).toBe(true);
    expect(owner).toMatchObject({ v2: { kind: 'oauth', accountId: 'a' } });
    await expect(restarted.decide({ apiKey: 'k', apiSecret: 'guess' })).rejects.toBeInstanceOf(ProofsExhausted);
  });

  it('keeps a keyed hash, never the secret, and nothing a guess can be checked against without the credentials file', async () => {
    const entry = await entryOf('the-owners-secret');
    const file = storeFile();
    await processOver(entry, file).decide({ apiKey: 'k', apiSecret: 'the-owners-secret' });
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('the-owners-secret');
    expect(text).toBe(`${verifierOf(entry, 'the-owners-secret', Infinity)}\n`);
    // The same key and secret under another hash of the same secret (another salt): another verifier.
    const rehashed = { ...entry, secret_hash: await hashSecret('the-owners-secret') };
    expect(verifierOf(rehashed, 'the-owners-secret', Infinity)).not.toBe(verifierOf(entry, 'the-owners-secret', Infinity));
  });

  it('forgets every pair when the entry changes: a rotated-away secret is hashed (and refused) again', async () => {
    const entry = await entryOf('old');
    const file = storeFile();
    await processOver(entry, file).decide({ apiKey: 'k', apiSecret: 'old' });
    const rotated = await entryOf('new');
    const after = processOver(rotated, file);
    await expect(Promise.resolve(after.decide({ apiKey: 'k', apiSecret: 'old' }))).rejects.toBeInstanceOf(SecretRefused);
  });

  it('remembers a previous secret only until its time: past it, the verifier is no candidate', async () => {
    const until = new Date(NOW + 60_000).toISOString();
    const entry = await entryOf('new', [{ secret: 'old', until }]);
    const file = storeFile();
    await processOver(entry, file).decide({ apiKey: 'k', apiSecret: 'old' });
    expect(readFileSync(file, 'utf8')).toBe(`${verifierOf(entry, 'old', Date.parse(until))}\n`);
    expect(candidatesOf(entry, 'old', NOW).map((c) => c.untilMs)).toEqual([Infinity, Date.parse(until)]);
    expect(candidatesOf(entry, 'old', NOW + 60_000).map((c) => c.untilMs)).toEqual([Infinity]);
  });

  it('reads what another process appended since it started, and ignores lines that are no verifier', async () => {
    const entry = await entryOf('right');
    const file = storeFile();
    writeFileSync(file, 'not a verifier\n');
    const store = new FileProvenSecrets(file);
    appendFileSync(file, `${verifierOf(entry, 'right', Infinity)}\n`);
    expect(await store.find('k', candidatesOf(entry, 'right', NOW))).toEqual({
      verifier: verifierOf(entry, 'right', Infinity),
      untilMs: Infinity,
    });
    expect(await store.find('k', candidatesOf(entry, 'not a verifier', NOW))).toBeUndefined();
  });

  it('a file that cannot be written keeps the verifiers in memory and says so once', async () => {
    const problems: string[] = [];
    const store = new FileProvenSecrets('/proc/v1gate-cannot-write-here/credentials.json.proven', (p) => problems.push(p));
    await store.remember('k', 'a'.repeat(43));
    await store.remember('k', 'b'.repeat(43));
    expect(await store.find('k', [{ verifier: 'b'.repeat(43), untilMs: Infinity }])).toEqual({
      verifier: 'b'.repeat(43),
      untilMs: Infinity,
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/kept in memory only/);
  });
});
