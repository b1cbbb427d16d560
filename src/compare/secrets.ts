/**
 * What a recorded call never holds. The record file is made to be handed around (attached to a CI
 * run, a bug report), so: the credentials are left out (a replay substitutes the caller's own);
 * passwords sent as params and the secrets v1 answers carry (a user's `token` and `zak`, passwords)
 * are replaced by `redacted`, at any depth. `redacted` is a value v1 accepts wherever a password
 * goes (letters only, 8 characters), so a recorded write sequence still replays; a compare counts
 * these fields as noise (minted identifiers), never as differences.
 */
export const CREDENTIAL_PARAMS: ReadonlySet<string> = new Set(['api_key', 'api_secret']);
const SECRET_FIELDS = new Set(['password', 'h323_password', 'encrypted_password', 'token', 'zak', 'access_token', 'jwt', 'secret']);
export const REDACTED = 'redacted';

export const isSecretField = (name: string): boolean => SECRET_FIELDS.has(name.toLowerCase());

/** Params as recorded: credentials dropped, secret fields' values replaced. */
export function recordableParams(params: Record<string, string | string[]>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(params)) {
    if (CREDENTIAL_PARAMS.has(name)) continue;
    out[name] = isSecretField(name) ? (Array.isArray(value) ? value.map(() => REDACTED) : REDACTED) : value;
  }
  return out;
}

/** An answer as recorded: every secret field's value replaced, in objects and lists at any depth. */
export function recordableAnswer(answer: unknown): unknown {
  if (Array.isArray(answer)) return answer.map(recordableAnswer);
  if (typeof answer !== 'object' || answer === null) return answer;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(answer)) {
    out[name] = isSecretField(name) && value !== '' && value !== null && typeof value !== 'object' ? REDACTED : recordableAnswer(value);
  }
  return out;
}
