import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { hashSecret, verifySecret } from '../../src/upstream/auth/secret-hash.js';
import { emptyCredentialFile, mapSandboxKeyToOAuth, startTestGateway, type TestGateway } from '../support/gateway.js';

/**
 * The right secret with a control character added: `secret\0` hashes as `secret` (scrypt's PBKDF2
 * and HMAC pad a short key with zero bytes), so without a check of their own the credential map
 * and the signer accepted it, and each variant was remembered apart (a verifier line, a Redis key).
 * Every credential path refuses a key or secret holding a C0 control or DEL before it hashes or
 * compares anything: a v1 error naming the field, nothing remembered, nothing hashed, no v2 call.
 * Real gateways over their real sandbox.
 */

/** The variants: NUL-suffixed (the attack), several NULs, other C0 controls and DEL, at either end and inside. */
const VARIANTS = (secret: string) => [
  `${secret}\u0000`,
  `${secret}\u0000\u0000\u0000`,
  `${secret}\u0001`,
  `${secret}\u001b`,
  `${secret}\u007f`,
  `\u0000${secret}`,
  `${secret.slice(0, 4)}\u0007${secret.slice(4)}`,
];

const refusal = (field: string) => ({
  error: { code: 300, message: expect.stringMatching(new RegExp(`^Invalid parameter: ${field}\\. .*control character`)) },
});

/** Every file beside the credentials file, by name, with its text: what the gateway remembers of pairs. */
function besideCredentials(file: string): Record<string, string> {
  const folder = dirname(file);
  return Object.fromEntries(readdirSync(folder).map((name) => [name, readFileSync(join(folder, name), 'utf8')]));
}

/** v1gate_credential_checks_total by `how` (remembered, hashed, over_budget). */
async function checks(gateway: TestGateway): Promise<Record<string, number>> {
  const text = await (await fetch(`${gateway.url}/metrics`)).text();
  return Object.fromEntries(
    [...text.matchAll(/^v1gate_credential_checks_total\{how="(\w+)"\} (\d+)$/gm)].map((m) => [m[1]!, Number(m[2])]),
  );
}

async function signer(gateway: TestGateway, fields: Record<string, string>): Promise<unknown> {
  const response = await fetch(`${gateway.url}/sdk/signature`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ meeting_number: '123456789', role: '0', ...fields }),
  });
  return response.json();
}

describe('a secret with a control character, at a key in the credential map', () => {
  let gateway: TestGateway;
  let file: string;

  beforeAll(async () => {
    file = emptyCredentialFile();
    gateway = await startTestGateway({ V2_CREDENTIALS_FILE: file });
    await mapSandboxKeyToOAuth(gateway, file);
  }, 60_000);
  afterAll(() => gateway?.close());

  it('is refused naming api_secret, before any hash: nothing remembered beside the credentials file, no check counted', async () => {
    const owner = await gateway.v1Raw('/user/checkemail', { email: 'owner@sandbox.v1gate.local' });
    expect(owner.body).toEqual({ existed_email: true });
    const remembered = besideCredentials(file);
    const counted = await checks(gateway);

    for (const secret of VARIANTS(gateway.credentials.api_secret)) {
      const answer = await gateway.v1Raw('/user/checkemail', { api_secret: secret, email: 'owner@sandbox.v1gate.local' });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(refusal('api_secret'));
    }
    expect(besideCredentials(file)).toEqual(remembered);
    expect(await checks(gateway)).toEqual(counted);
  });

  it('is refused by the SDK signer too, and a key with one naming api_key', async () => {
    const { api_key, api_secret } = gateway.credentials;
    expect(await signer(gateway, { api_key, api_secret })).toEqual({ signature: expect.any(String) });
    for (const secret of VARIANTS(api_secret))
      expect(await signer(gateway, { api_key, api_secret: secret })).toEqual(refusal('api_secret'));
    for (const key of VARIANTS(api_key)) {
      expect(await gateway.v1('/user/checkemail', { api_key: key, email: 'owner@sandbox.v1gate.local' })).toEqual(refusal('api_key'));
    }
  });
});

describe('a secret with a control character, at a gateway whose v2 proves the pair', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway();
  }, 60_000);
  afterAll(() => gateway?.close());

  it('is refused before any v2 call, where v2 (an HMAC over the secret) would accept it', async () => {
    const requests = await v2Requests(gateway);
    for (const secret of VARIANTS(gateway.credentials.api_secret)) {
      expect(await gateway.v1('/user/checkemail', { api_secret: secret, email: 'owner@sandbox.v1gate.local' })).toEqual(
        refusal('api_secret'),
      );
    }
    expect(await v2Requests(gateway)).toBe(requests);
  });
});

/** The v2 calls the gateway has made (v1gate_v2_calls_total, every label summed). */
async function v2Requests(gateway: TestGateway): Promise<number> {
  const text = await (await fetch(`${gateway.url}/metrics`)).text();
  return [...text.matchAll(/^v1gate_v2_calls_total\{[^}]*\} (\d+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
}

describe('configured secrets with a control character', () => {
  it('a webhook secret token is refused at start (a line end copied with it)', () => {
    for (const name of ['V2_WEBHOOK_SECRET_TOKEN', 'V2_WEBHOOK_PREVIOUS_SECRET_TOKEN']) {
      expect(() => loadConfig({ PORT: '0', V2_WEBHOOK_SECRET_TOKEN: 'the-secret-token', [name]: 'the-secret-token\r' })).toThrow(
        new RegExp(`${name}.*control character`, 's'),
      );
    }
  });

  it('a secret is never hashed for the credentials file, nor matched against a hash', async () => {
    await expect(hashSecret('secret\u0000')).rejects.toThrow(/control character/);
    expect(await verifySecret('secret\u0000', await hashSecret('secret'))).toBe(false);
  });
});
