import { randomBytes } from 'node:crypto';
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { hashSecret } from './secret-hash.js';
import { parseCredentialFile, readCredentialFile, type CredentialEntry, type SdkApp } from './credential-map.js';
import type { RateLimitPlan } from '../../v2-contract/rate-limit-plans.js';

/**
 * The edits `npm run credentials` makes to a credentials file: add a key, rotate its v1 secret. Each
 * reads the file whole, validates it, and writes it back whole through a temporary file and a rename
 * (readers, and a gateway reloading on SIGHUP, see the old file or the new one, never half of one),
 * readable by its owner only: it holds v2 secrets.
 */

export type V2App = CredentialEntry['v2'];

/** A new legacy secret: 32 random bytes, base64url (43 characters), as strong as the service's own. */
export function newLegacySecret(): string {
  return randomBytes(32).toString('base64url');
}

export function readOrEmpty(file: string): CredentialEntry[] {
  return existsSync(file) ? readCredentialFile(file) : [];
}

export function writeCredentialFile(file: string, entries: readonly CredentialEntry[]): void {
  const text = `${JSON.stringify(entries, null, 2)}\n`;
  parseCredentialFile(text, file); // never write a file the gateway would refuse
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  renameSync(temporary, file);
}

export async function addEntry(
  entries: readonly CredentialEntry[],
  input: { apiKey: string; secret: string; v2: V2App; sdk?: SdkApp; plan?: RateLimitPlan; replace: boolean },
): Promise<CredentialEntry[]> {
  const existing = entries.findIndex((e) => e.api_key === input.apiKey);
  if (existing !== -1 && !input.replace) throw new Error(`api_key ${input.apiKey} is in the file already (--replace replaces it).`);
  const entry: CredentialEntry = {
    api_key: input.apiKey,
    secret_hash: await hashSecret(input.secret),
    previous_secrets: [],
    v2: input.v2,
    ...(input.sdk ? { sdk: input.sdk } : {}),
    ...(input.plan ? { plan: input.plan } : {}),
  };
  return existing === -1 ? [...entries, entry] : entries.map((e, i) => (i === existing ? entry : e));
}

/**
 * A new v1 secret for a key; the current one stays valid until `keepOldUntil` (previous secrets
 * whose time has passed are dropped, so the list stays short). v2 is not touched.
 */
export async function rotateEntry(
  entries: readonly CredentialEntry[],
  input: { apiKey: string; newSecret: string; keepOldUntil: Date; now: Date },
): Promise<CredentialEntry[]> {
  const at = entries.findIndex((e) => e.api_key === input.apiKey);
  if (at === -1) throw new Error(`api_key ${input.apiKey} is not in the file.`);
  if (input.keepOldUntil.getTime() < input.now.getTime()) throw new Error('The old secret cannot stay valid until a time already past.');
  const entry = entries[at]!;
  const stillValid = entry.previous_secrets.filter((p) => Date.parse(p.until) > input.now.getTime());
  const rotated: CredentialEntry = {
    ...entry,
    secret_hash: await hashSecret(input.newSecret),
    previous_secrets: [
      { secret_hash: entry.secret_hash, until: input.keepOldUntil.toISOString().replace(/\.\d{3}Z$/, 'Z') },
      ...stillValid,
    ].slice(0, 8),
  };
  return entries.map((e, i) => (i === at ? rotated : e));
}

/** Gives a mapped key a Meeting SDK app, or replaces the one it has (undefined: takes it away, back to the 1.9.1 signature). */
export function setSdkApp(entries: readonly CredentialEntry[], input: { apiKey: string; sdk: SdkApp | undefined }): CredentialEntry[] {
  const at = entries.findIndex((e) => e.api_key === input.apiKey);
  if (at === -1) throw new Error(`api_key ${input.apiKey} is not in the file.`);
  const { sdk: _old, ...rest } = entries[at]!;
  const changed: CredentialEntry = input.sdk ? { ...rest, sdk: input.sdk } : rest;
  return entries.map((e, i) => (i === at ? changed : e));
}
