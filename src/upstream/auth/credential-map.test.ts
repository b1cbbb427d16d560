import { describe, expect, it } from 'vitest';
import { CredentialFileError, CredentialMap, parseCredentialFile } from './credential-map.js';
import { hashSecret, secretHashProblem, verifySecret } from './secret-hash.js';

describe('secret hashes', () => {
  it('verify the secret they were made from, and no other; each hash salted anew', async () => {
    const hash = await hashSecret('legacy-secret');
    expect(secretHashProblem(hash)).toBeUndefined();
    expect(hash).toMatch(/^\$scrypt\$ln=12,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(hash).not.toContain('legacy-secret');
    expect(await verifySecret('legacy-secret', hash)).toBe(true);
    expect(await verifySecret('legacy-secreT', hash)).toBe(false);
    expect(await hashSecret('legacy-secret')).not.toBe(hash);
  });

  it('name what is wrong with a value that is not one', () => {
    expect(secretHashProblem('plain-text-secret')).toMatch(/not a scrypt hash/);
    expect(secretHashProblem('$scrypt$ln=2,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).toMatch(/outside/);
  });
});

describe('credentials files', () => {
  const jwt = { kind: 'jwt', key: 'v2-key', secret: 'v2-secret' };

  it('list every problem at once, naming where each is, never a value', async () => {
    const hash = await hashSecret('s');
    const text = JSON.stringify([
      { api_key: 'a', secret_hash: 'not-a-hash', v2: jwt },
      { api_key: 'b', secret_hash: hash, v2: { kind: 'oauth', account_id: 'acc', client_id: 'cid' } },
      { api_key: 'a', secret_hash: hash, v2: { kind: 'basic' }, extra: 1 },
    ]);
    let caught: unknown;
    try {
      parseCredentialFile(text, 'creds.json');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CredentialFileError);
    const { problems, message } = caught as CredentialFileError;
    expect(problems).toEqual([
      expect.stringMatching(/^\[0\]\.secret_hash is not a scrypt hash/),
      expect.stringMatching(/^\[1\]\.v2\.client_secret /),
      expect.stringMatching(/^\[2\]/),
      expect.stringMatching(/^\[2\]/),
    ]);
    expect(message).toMatch(/^V2_CREDENTIALS_FILE creds\.json: /);
    expect(message).not.toContain('not-a-hash');
    expect(() => parseCredentialFile('{', 'x.json')).toThrow(/is not JSON/);
    expect(() =>
      parseCredentialFile(
        JSON.stringify([
          { api_key: 'a', secret_hash: hash, v2: jwt },
          { api_key: 'a', secret_hash: hash, v2: jwt },
        ]),
        'x',
      ),
    ).toThrow(/\[1\]\.api_key appears twice/);
  });
});

describe('CredentialMap', () => {
  it('accepts the current secret, refuses a wrong one, leaves unmapped keys to v2', async () => {
    const map = new CredentialMap(
      parseCredentialFile(
        JSON.stringify([{ api_key: 'k', secret_hash: await hashSecret('right'), v2: { kind: 'jwt', key: 'v2k', secret: 'v2s' } }]),
        'f',
      ),
    );
    expect(await map.verify('k', 'right')).toEqual({ kind: 'accepted', v2: { kind: 'jwt', key: 'v2k', secret: 'v2s' }, untilMs: Infinity });
    expect(await map.verify('k', 'wrong')).toEqual({ kind: 'refused' });
    expect(await map.verify('other', 'right')).toEqual({ kind: 'unmapped' });
  });

  it('accepts a previous secret until its time, and not after', async () => {
    let now = Date.parse('2026-11-25T12:00:00Z');
    const entries = parseCredentialFile(
      JSON.stringify([
        {
          api_key: 'k',
          secret_hash: await hashSecret('new'),
          previous_secrets: [{ secret_hash: await hashSecret('old'), until: '2026-11-26T00:00:00Z' }],
          v2: { kind: 'oauth', account_id: 'a', client_id: 'c', client_secret: 's' },
        },
      ]),
      'f',
    );
    const map = new CredentialMap(entries, { now: () => now });
    expect((await map.verify('k', 'old')).kind).toBe('accepted');
    expect((await map.verify('k', 'new')).kind).toBe('accepted');
    now = Date.parse('2026-11-26T00:00:00Z');
    expect(await map.verify('k', 'old')).toEqual({ kind: 'refused' });
    expect((await map.verify('k', 'new')).kind).toBe('accepted');
  });

  it('hashes each pair once: a repeated right or wrong secret is answered from memory', async () => {
    let hashChecks = 0;
    const counted = (secret: string, hash: string) => {
      hashChecks++;
      return verifySecret(secret, hash);
    };
    const entries = parseCredentialFile(
      JSON.stringify([{ api_key: 'k', secret_hash: await hashSecret('right'), v2: { kind: 'jwt', key: 'a', secret: 'b' } }]),
      'f',
    );
    const map = new CredentialMap(entries, { verifySecret: counted });
    for (let i = 0; i < 20; i++) {
      expect((await map.verify('k', 'right')).kind).toBe('accepted');
      expect((await map.verify('k', 'wrong')).kind).toBe('refused');
    }
    expect(hashChecks).toBe(2);
  });
});
