/**
 * The one list of field names whose values are secrets, and the one way to censor them, for
 * everything v1gate writes down: log lines (src/ops/logging.ts) and recorded calls
 * (src/compare/secrets.ts).
 */
const SECRET_FIELDS: ReadonlySet<string> = new Set([
  'api_secret',
  'apisecret',
  'password',
  'h323_password',
  'encrypted_password',
  'token',
  'zak',
  'access_token',
  'jwt',
  'secret',
  'authorization',
]);

/** Whatever its case (`Authorization`, `apiSecret`). */
export const isSecretField = (name: string): boolean => SECRET_FIELDS.has(name.toLowerCase());

/**
 * A copy of `value` in which every secret-named field of its plain objects, at any depth and in
 * arrays, holds `censor` instead of its value. An empty value stays empty: it reveals nothing, and a
 * diff of recorded answers still sees that it was empty. Other objects (errors, buffers) pass as
 * they are.
 */
export function censorSecrets(value: unknown, censor: string): unknown {
  if (Array.isArray(value)) return value.map((item) => censorSecrets(item, censor));
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const censored: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    censored[name] = isSecretField(name) && field !== '' && field !== null && field !== undefined ? censor : censorSecrets(field, censor);
  }
  return censored;
}
