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
 * `value` with every secret-named field of its plain objects, at any depth and in arrays, holding
 * `censor` instead of its value. Only what holds a secret is copied (the objects and lists on the
 * way to it); the rest, and a value with no secret at all, is returned as it is: every log line
 * passes here, and most have nothing to censor. An empty value stays empty: it reveals nothing, and
 * a diff of recorded answers still sees that it was empty. Other objects (errors, buffers) pass as
 * they are.
 */
export function censorSecrets(value: unknown, censor: string): unknown {
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const censored = censorSecrets(item, censor);
      if (censored !== item) (copy ??= value.slice())[i] = censored;
    }
    return copy ?? value;
  }
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const fields = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const name of Object.keys(fields)) {
    const field = fields[name];
    const censored = isSecretField(name) && field !== '' && field !== null && field !== undefined ? censor : censorSecrets(field, censor);
    if (censored !== field) (copy ??= { ...fields })[name] = censored;
  }
  return copy ?? value;
}
