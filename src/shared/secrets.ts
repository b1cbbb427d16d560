/**
 * The one redactor of everything v1gate writes down: log lines (src/ops/logging.ts), recorded
 * calls (src/compare/calls.ts, har.ts), compare and shadow reports (src/compare/). A secret is
 * found two ways, and both always apply:
 *
 * - **by name**: a field whose name reads as a secret (`api_secret`, `password`, `token`, `zak` ...)
 *   holds a secret, whatever its spelling (`apiSecret`, `api-secret`, `API_SECRET `, `api_secret\0`);
 *   so does a query parameter of that name inside any text (`.../s/123?zak=...`, `pwd=`, `tk=`);
 * - **by value**: the secrets a writer knows (the request's own api_secret, every configured
 *   secret, each token the answers it writes carry) are replaced wherever they appear: in any
 *   field, inside URLs and messages, in field names, percent-encoded or not.
 *
 * Request params get one more rule (`redactParams`): a name that is not a form field name (a JSON
 * or XML body sent without the form content type reads as one long name) is never written as is.
 */

/**
 * Secret values handed to whoever must redact them (a call's own api_secret, to its observers): in
 * a private field, so a record that holds them can be serialised or inspected without showing one
 * (`JSON.stringify` writes how many there are).
 */
export class SecretValues implements Iterable<string> {
  readonly #values: readonly string[];

  constructor(values: readonly string[]) {
    this.#values = values;
  }

  get size(): number {
    return this.#values.length;
  }

  /** The value at `index` (0 to size - 1): read by index, a redactor asked on every call makes no iterator. */
  at(index: number): string | undefined {
    return this.#values[index];
  }

  [Symbol.iterator](): Iterator<string> {
    return this.#values[Symbol.iterator]();
  }

  toJSON(): string {
    return `${this.#values.length} secret(s)`;
  }
}

/**
 * The secrets a gateway knows by value for its whole life (configured ones, the sandbox's own),
 * learned as its parts are made: every writer asks it for a redactor when it writes, so a secret
 * learned after the writer was made is still redacted.
 */
export class KnownSecrets {
  readonly #values = new Set<string>();
  readonly #redactors = new Map<string, Redactor>();

  constructor(secrets: Iterable<string | undefined> = []) {
    this.add(secrets);
  }

  add(secrets: Iterable<string | undefined>): void {
    for (const secret of secrets) {
      if (secret === undefined || secret.length < MIN_SECRET_LENGTH || this.#values.has(secret)) continue;
      this.#values.add(secret);
      this.#redactors.clear();
    }
  }

  /** The redactor replacing secrets with `censor`, knowing these by value. */
  redactor(censor: string): Redactor {
    let redactor = this.#redactors.get(censor);
    if (!redactor) this.#redactors.set(censor, (redactor = createRedactor(censor, this.#values)));
    return redactor;
  }
}

/** Names, letters and digits only and lower-cased, that hold a secret. */
const SECRET_NAMES: ReadonlySet<string> = new Set([
  'token',
  'zak',
  'zpk',
  'jwt',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'authorization',
  'pwd',
  'tk',
]);
/** A name holding one of these words holds a secret (`h323_password`, `encrypted_password`, `client_secret`, `passcode`). */
const SECRET_WORDS = /secret|passw|passcode|passwd/;

/** The name as compared: letters and digits only, lower case (`API-Secret `, `api_secret\0` → `apisecret`). */
const normalized = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Names already judged: field names come from a small vocabulary, and every log line asks about each of its own. */
const judged = new Map<string, boolean>();
const MAX_JUDGED = 10_000;

/** Whatever its spelling: `api_secret`, `apiSecret`, `api-secret`, `Authorization`, `h323_password`, `zak`. */
export function isSecretField(name: string): boolean {
  let secret = judged.get(name);
  if (secret === undefined) {
    const plain = normalized(name);
    secret = SECRET_NAMES.has(plain) || SECRET_WORDS.test(plain);
    if (judged.size < MAX_JUDGED) judged.set(name, secret);
  }
  return secret;
}

/**
 * Values shorter than this are redacted by name only: a 4-digit passcode replaced wherever it
 * appears would also cut through meeting ids and times, and hide nothing.
 */
export const MIN_SECRET_LENGTH = 8;

/**
 * Named values inside a text, each as (lead, name, value): a query parameter (`?zak=...`, `&pwd=`,
 * or one at the start of a query string), an XML element (`<zak>...</zak>`, an XML answer kept as
 * text) and a JSON string field (`"token":"..."`, a JSON answer kept as text).
 */
const EMBEDDED: readonly { marker: string; pattern: RegExp; rebuild(lead: string, name: string, value: string): string }[] = [
  {
    marker: '=',
    pattern: /(^|[?&;#\s])([^=&?;#\s]{1,64})=([^&;#\s"'<>]*)/g,
    rebuild: (lead, name, value) => `${lead}${name}=${value}`,
  },
  {
    marker: '</',
    pattern: /(<)([A-Za-z_][\w.-]{0,63})>([^<]*)(?=<\/\2>)/g,
    rebuild: (lead, name, value) => `${lead}${name}>${value}`,
  },
  {
    marker: '":',
    pattern: /(")([^"\\]{1,64})"\s*:\s*"((?:[^"\\]|\\.)*)(?=")/g,
    rebuild: (lead, name, value) => `${lead}${name}":"${value}`,
  },
];

/** A text with none of these characters embeds no named value. */
const MAY_EMBED = /[=<"]/;

/** Whether a named value's name reads as a secret and its value is one to censor (not empty, not the censor already). */
const embeddedSecret = (name: string, value: string, censor: string) =>
  value !== '' && value !== censor && isSecretField(decodeLeniently(name));

/**
 * `text` with the value of every named value that reads as a secret (`?zak=...`, `<token>...`,
 * `"pwd":"..."`) replaced by `censor`: the rewrite `Redactor.text` makes once `embedsSecret` has
 * found one. Exported for the test that holds the two together.
 */
export function redactEmbedded(text: string, censor: string): string {
  let out = text;
  for (const { marker, pattern, rebuild } of EMBEDDED) {
    if (!out.includes(marker)) continue;
    out = out.replace(pattern, (whole, lead: string, name: string, secret: string) =>
      embeddedSecret(name, secret, censor) ? rebuild(lead, name, censor) : whole,
    );
  }
  return out;
}

/**
 * Whether `redactEmbedded` would change `text`, found without making its copy: a replace whose
 * every match is given back whole still builds a new string, and a v2 tracking id
 * (`v=2.0;clid=...;rid=...`), a date or a URL with a query holds `=` on most call lines. While
 * nothing is replaced each pattern reads the same text, so reading each over `text` as it stands
 * decides.
 */
function embedsSecret(text: string, censor: string): boolean {
  for (const { marker, pattern } of EMBEDDED) {
    if (!text.includes(marker)) continue;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      if (embeddedSecret(match[2]!, match[3]!, censor)) {
        pattern.lastIndex = 0;
        return true;
      }
    }
  }
  return false;
}

/** The secrets `value` carries by name: values of secret-named fields, and of secret-named query parameters in its texts. */
export function secretsIn(value: unknown, found: Set<string> = new Set()): Set<string> {
  if (typeof value === 'string') {
    for (const { marker, pattern } of EMBEDDED) {
      if (!value.includes(marker)) continue;
      for (const match of value.matchAll(pattern)) {
        if (isSecretField(decodeLeniently(match[2]!))) addSecret(found, decodeLeniently(match[3]!));
      }
    }
  } else if (Array.isArray(value)) {
    for (const item of value) secretsIn(item, found);
  } else if (isPlainObject(value)) {
    for (const [name, field] of Object.entries(value)) {
      if (isSecretField(name) && (typeof field === 'string' || typeof field === 'number')) addSecret(found, String(field));
      else secretsIn(field, found);
    }
  }
  return found;
}

function addSecret(found: Set<string>, secret: string): void {
  if (secret.length >= MIN_SECRET_LENGTH && secret !== 'redacted' && !secret.startsWith('[Redacted')) found.add(secret);
}

function decodeLeniently(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** An empty value reveals nothing, and a switch (`enable_phone_participants_password: true`) is no secret. */
export const holdsSecret = (field: unknown) => field !== '' && field !== null && field !== undefined && typeof field !== 'boolean';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;

/** A form field name as v1 clients send them (`topic`, `member_ids[]`, `custom_questions[0][title]`). */
const FORM_FIELD_NAME = /^[A-Za-z0-9_.\-[\]]{1,100}$/;

export interface Redactor {
  /** What a secret is replaced by (`[Redacted]` in logs, `redacted` in records and reports). */
  readonly censor: string;
  /**
   * `value` with every secret replaced, by name and by value, at any depth, in arrays, in field
   * names and inside texts. Only what holds a secret is copied (the objects and lists on the way
   * to it); a value with no secret is returned as it is: every log line passes here, and most have
   * nothing to censor. An empty secret stays empty (it reveals nothing, and a diff of recorded
   * answers still sees that it was empty), and so does a switch. Other objects (errors, buffers)
   * pass as they are.
   */
  redact<T>(value: T): T;
  /** One text as `redact` writes it wherever it stands: for a writer that walks a value itself. */
  text(value: string): string;
  /** A field's name as `redact` writes it: the secrets it holds by value replaced. */
  fieldName(name: string): string;
  /** Request params: as `redact`, and a name that is not a form field name is replaced with its value. */
  redactParams<T extends Record<string, unknown>>(params: T): Record<string, unknown>;
  /** A redactor that also knows `secrets` (shorter ones are ignored). */
  with(secrets: Iterable<string | undefined>): Redactor;
  /** How many secrets it knows by value (for tests and reports: never the secrets themselves). */
  readonly known: number;
}

/** A redactor replacing secrets with `censor`, knowing `secrets` by value (shorter than MIN_SECRET_LENGTH: by name only). */
export function createRedactor(censor: string, secrets: Iterable<string | undefined> = []): Redactor {
  const raw = new Set<string>();
  const values: string[] = [];
  const add = (secret: string | undefined) => {
    if (secret === undefined || secret.length < MIN_SECRET_LENGTH || secret === censor || raw.has(secret)) return;
    raw.add(secret);
    // Percent-encoded too: a secret inside a URL or a form body is written encoded.
    for (const form of [secret, encodeURIComponent(secret), new URLSearchParams({ x: secret }).toString().slice(2)]) {
      if (!values.includes(form)) values.push(form);
    }
  };
  for (const secret of secrets) add(secret);
  // Longest first: a secret that contains another is replaced whole.
  values.sort((a, b) => b.length - a.length);

  // The shortest secret known: a text shorter than it holds none by value (most texts of a log line).
  const shortest = values.reduce((min, secret) => Math.min(min, secret.length), Infinity);
  const byValue = (value: string): string => {
    if (value.length < shortest) return value;
    let out = value;
    for (const secret of values) if (out.includes(secret)) out = out.split(secret).join(censor);
    return out;
  };
  const text = (value: string): string => {
    const out = byValue(value);
    return MAY_EMBED.test(out) && embedsSecret(out, censor) ? redactEmbedded(out, censor) : out;
  };

  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return text(value);
    if (typeof value === 'number' && values.length > 0 && values.includes(String(value))) return censor;
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        const redacted = walk(item);
        if (redacted !== item) (copy ??= value.slice())[i] = redacted;
      }
      return copy ?? value;
    }
    if (!isPlainObject(value)) return value;
    let copy: Record<string, unknown> | undefined;
    for (const name of Object.keys(value)) {
      const field = value[name];
      const redacted = isSecretField(name) && holdsSecret(field) ? censor : walk(field);
      const renamed = byValue(name);
      if (renamed !== name) {
        copy ??= { ...value };
        delete copy[name];
        copy[renamed] = redacted;
      } else if (redacted !== field) (copy ??= { ...value })[name] = redacted;
    }
    return copy ?? value;
  };

  /**
   * The redactors that also know a few more secrets, by those secrets: a writer asks for the same
   * ones again and again (a key's calls carry its secret each time), and making a redactor costs
   * about as much as the walk of a whole log line. Bounded: dropped whole when full.
   */
  const derived = new Map<string, Redactor>();
  const redactor: Redactor = {
    censor,
    redact: <T>(value: T) => walk(value) as T,
    text,
    fieldName: byValue,
    redactParams: (params) => walk(withReadableNames(params, censor)) as Record<string, unknown>,
    with(more) {
      // Without spreading, filtering or an array: every call's line asks this, nearly always for its one api_secret.
      const added = unknownOf(raw, more);
      if (added === undefined) return redactor;
      const key = typeof added === 'string' ? added : added.join('\u0000');
      let known = derived.get(key);
      if (!known) {
        if (derived.size >= MAX_DERIVED) derived.clear();
        derived.set(key, (known = createRedactor(censor, [...raw, ...(typeof added === 'string' ? [added] : added)])));
      }
      return known;
    },
    known: raw.size,
  };
  return redactor;
}

/** The secrets of `more` that `raw` does not hold: none, one, or several in their order. */
function unknownOf(raw: ReadonlySet<string>, more: Iterable<string | undefined>): string | string[] | undefined {
  // A call's own secrets are read by index: no iterator, and no list for the one secret nearly every call has.
  const values = more instanceof SecretValues ? more : [...more];
  let first: string | undefined;
  let all: string[] | undefined;
  for (let i = 0; i < (values instanceof SecretValues ? values.size : values.length); i++) {
    const secret = values instanceof SecretValues ? values.at(i) : values[i];
    if (secret === undefined || raw.has(secret)) continue;
    if (first === undefined) first = secret;
    else (all ??= [first]).push(secret);
  }
  return all ?? first;
}

/** Redactors kept per set of further secrets (see `with`): the pairs calling at once, with room to spare. */
const MAX_DERIVED = 1_024;

/**
 * Request params with every name that is not a form field name (a JSON or XML body sent without
 * the form content type reads as one long name) replaced, its value with it: the rule
 * `redactParams` adds to `redact`, for a writer that redacts the whole record later in one walk.
 */
export function withReadableNames<T extends Record<string, unknown>>(params: T, censor: string): Record<string, unknown> {
  let unreadable = 0;
  for (const name in params) if (!FORM_FIELD_NAME.test(name)) unreadable++;
  if (unreadable === 0) return params;
  unreadable = 0;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(params)) {
    if (FORM_FIELD_NAME.test(name)) out[name] = value;
    else out[`${censor} field ${++unreadable}`] = censor;
  }
  return out;
}
