import { createRedactor, isSecretField, secretsIn, type Redactor } from '../shared/secrets.js';
import { leafField } from './diff.js';

/**
 * What a recorded call and a report never hold. The record file and the reports are made to be
 * handed around (attached to a CI run, a bug report), so: the credentials are left out of a
 * record (a replay substitutes the caller's own); every secret is replaced by `redacted` by the
 * one redactor (src/shared/secrets.ts) — by name (passwords sent as params, the `token` and `zak`
 * an answer carries, `?zak=` inside a `start_url`) and by value (the request's own api_secret, the
 * configured secrets, and every token the answers carry, wherever it appears). `redacted` is a
 * value v1 accepts wherever a password goes (letters only, 8 characters), so a recorded write
 * sequence still replays; a compare counts these fields as noise (minted identifiers).
 */
export const CREDENTIAL_PARAMS: ReadonlySet<string> = new Set(['api_key', 'api_secret']);
export const REDACTED = 'redacted';

/** A redactor for what compare writes (`redacted`), knowing `secrets` by value. */
export const recordRedactor = (secrets: Iterable<string | undefined> = []): Redactor => createRedactor(REDACTED, secrets);

/** Params as recorded: credentials dropped, names no form has replaced, secrets replaced. */
export function recordableParams(
  params: Record<string, string | string[]>,
  redactor: Redactor = recordRedactor(),
): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(params)) if (!CREDENTIAL_PARAMS.has(name)) kept[name] = value;
  return redactor.redactParams(kept) as Record<string, string | string[]>;
}

/**
 * The redactor for one call: `known` (configured secrets, the request's api_secret) and every
 * secret the params and the answer carry by name, so the same token is also replaced where no
 * name gives it away (a `zak` inside a link, a password echoed in a message).
 */
export function callRedactor(known: Redactor, params: unknown, answer: unknown): Redactor {
  const found = secretsIn(answer, secretsIn(params));
  return found.size ? known.with(found) : known;
}

/** A value shown as a report's example: never a secret-named field's (a short meeting password is no secret by value). */
export function exampleValue(field: string, value: unknown): unknown {
  return isSecretField(leafField(field)) && value !== undefined && value !== '' && typeof value !== 'boolean' ? REDACTED : value;
}
