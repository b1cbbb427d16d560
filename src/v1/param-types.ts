import { z } from 'zod';

/**
 * Parameter types of v1 calls. Every v1 value arrives as form text; these zod schemas coerce it
 * the way v1 did and fail with a message fit to show after "Invalid parameter: <field>.".
 * An empty form field counts as absent, as it did for v1 (`topic=` leaves the topic alone).
 */

/** Form value → its text (last one wins when a single value was sent several times); files pass through. */
function single(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? undefined : value[value.length - 1];
  if (typeof value === 'string' && value.trim() === '') return undefined;
  return value;
}

const text = () => z.preprocess(single, z.string({ error: 'Must be text.' }));

/** The most items a v1 list param may carry when the spec gives no limit of its own (v1's page size cap). */
export const MAX_LIST_ITEMS = 300;

/**
 * The longest id v1 took (user, meeting, webinar, group, registrant, occurrence, device, file and
 * account ids, meeting uuids). Neither reference states one; the ids the service handed out are
 * 10 to 36 characters, a past meeting's uuid sent double-encoded under 60, and the v1 tables
 * already bound the ids they carry (group_id, imgroup_id, cms_user_id) at 128. A longer id names
 * nothing, and is refused as a parameter error before any v2 call (docs/decisions.md).
 */
export const MAX_ID_CHARS = 128;

/** The longest signed token v1 took as a parameter (`zpk`): a few hundred characters, bounded as the longest text the v2 reference bounds. */
export const MAX_TOKEN_CHARS = 2048;

const BOOL_TEXT: Record<string, boolean> = { true: true, false: false, '1': true, '0': false };
/** The boolean a text spells, by BOOL_TEXT's own keys only: `constructor` is not a boolean. */
const boolOf = (text: string): boolean | undefined => {
  const key = text.trim().toLowerCase();
  return Object.hasOwn(BOOL_TEXT, key) ? BOOL_TEXT[key] : undefined;
};

/**
 * Each type's reader of a form value: what its schema answers for a value it accepts, computed
 * directly, or NOT_READ for any value the reader is not sure of (a blank, a wrong type, a bound
 * passed), which the schema itself then parses and names. Kept beside the schema it stands for,
 * for the params reader compiled per endpoint (src/v1/params-reader.ts).
 */
export const NOT_READ = Symbol('not read');
export type ParamReader = (value: unknown) => unknown;
const readers = new WeakMap<z.core.$ZodType, ParamReader>();

function read<S extends z.ZodType>(schema: S, reader: ParamReader): S {
  readers.set(schema, reader);
  return schema;
}

/** The reader of a v1 type's schema; undefined for any other schema. */
export function readerOf(schema: z.core.$ZodType): ParamReader | undefined {
  return readers.get(schema);
}

/** The form value's single text (as `single`), or NOT_READ. */
function singleText(value: unknown): string | typeof NOT_READ {
  const text = single(value);
  return typeof text === 'string' ? text : NOT_READ;
}

/** A text within [min, max] characters as zod counts them, or NOT_READ. */
function boundedText(value: unknown, min: number, max: number): string | typeof NOT_READ {
  const text = singleText(value);
  return text !== NOT_READ && text.length >= min && text.length <= max ? text : NOT_READ;
}

const INTEGER = /^\s*[-+]?\d+\s*$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?Z?$/;

export const v1 = {
  /** Text, trimmed of nothing (v1 kept what it was sent). */
  string(opts: { max?: number; min?: number } = {}) {
    let schema = z.string({ error: 'Must be text.' });
    if (opts.min !== undefined) schema = schema.min(opts.min, `Must be at least ${opts.min} characters.`);
    if (opts.max !== undefined) schema = schema.max(opts.max, `Must be at most ${opts.max} characters.`);
    const min = opts.min ?? 0;
    const max = opts.max ?? Infinity;
    return read(z.preprocess(single, schema), (value) => boundedText(value, min, max));
  },

  /** An id: text of at most MAX_ID_CHARS characters. */
  id() {
    return v1.string({ max: MAX_ID_CHARS });
  },

  /** A signed token the service issued (`zpk`): text of at most MAX_TOKEN_CHARS characters. */
  token() {
    return v1.string({ max: MAX_TOKEN_CHARS });
  },

  /** A comma-separated list of ids that is passed on as the text it came in: at most MAX_LIST_ITEMS ids of at most MAX_ID_CHARS characters each. */
  idsText() {
    const message = `At most ${MAX_LIST_ITEMS} ids of at most ${MAX_ID_CHARS} characters each.`;
    const fits = (text: string) => {
      const ids = text.split(',');
      return ids.length <= MAX_LIST_ITEMS && ids.every((id) => id.trim().length <= MAX_ID_CHARS);
    };
    return read(v1.string({ max: MAX_LIST_ITEMS * (MAX_ID_CHARS + 1) }).refine(fits, message), (value) => {
      const text = boundedText(value, 0, MAX_LIST_ITEMS * (MAX_ID_CHARS + 1));
      return text !== NOT_READ && fits(text) ? text : NOT_READ;
    });
  },

  /** `true`/`false`/`1`/`0` in any letter case. */
  bool() {
    const reader = (value: unknown) => {
      const text = singleText(value);
      const parsed = text === NOT_READ ? undefined : boolOf(text);
      return typeof parsed === 'boolean' ? parsed : NOT_READ;
    };
    const schema = z.preprocess(
      single,
      z.string({ error: 'Must be true or false.' }).transform((value, ctx) => {
        const parsed = boolOf(value);
        if (parsed === undefined) {
          ctx.addIssue({ code: 'custom', message: 'Must be true or false.' });
          return z.NEVER;
        }
        return parsed;
      }),
    );
    return read(schema, reader);
  },

  /** A decimal integer within [min, max]. */
  int(opts: { min?: number; max?: number } = {}) {
    const min = opts.min ?? Number.MIN_SAFE_INTEGER;
    const max = opts.max ?? Number.MAX_SAFE_INTEGER;
    const schema = z.preprocess(
      single,
      z
        .string({ error: 'Must be an integer.' })
        .regex(INTEGER, 'Must be an integer.')
        .transform(Number)
        .pipe(z.number().min(min, `Must be at least ${min}.`).max(max, `Must be at most ${max}.`)),
    );
    return read(schema, (value) => {
      const text = singleText(value);
      const n = text !== NOT_READ && INTEGER.test(text) ? Number(text) : NaN;
      return Number.isFinite(n) && n >= min && n <= max ? n : NOT_READ;
    });
  },

  /** One of the listed values (exact spelling; pass `caseInsensitive` to accept any letter case). */
  oneOf<const T extends readonly [string, ...string[]]>(values: T, opts: { caseInsensitive?: boolean } = {}) {
    const message = `Must be one of: ${values.join(', ')}.`;
    const find = (value: string) =>
      opts.caseInsensitive ? values.find((v) => v.toLowerCase() === value.toLowerCase()) : values.find((v) => v === value);
    const reader = (value: unknown) => {
      const text = singleText(value);
      return (text === NOT_READ ? undefined : find(text)) ?? NOT_READ;
    };
    const schema = z.preprocess(
      single,
      z.string({ error: message }).transform((value, ctx) => {
        const found = find(value);
        if (found === undefined) {
          ctx.addIssue({ code: 'custom', message });
          return z.NEVER;
        }
        return found;
      }),
    );
    return read(schema, reader);
  },

  /** An integer that must be one of the listed values (`type` 1/2/3 and the like). */
  intOneOf<const T extends readonly number[]>(values: T) {
    const message = `Must be one of: ${values.join(', ')}.`;
    const isOne = (n: number): n is T[number] => values.includes(n);
    const int = readerOf(v1.int())!;
    return read(v1.int().refine(isOne, message), (value) => {
      const n = int(value);
      return typeof n === 'number' && isOne(n) ? n : NOT_READ;
    });
  },

  /** A JSON text inside a form field (`recurrence`, `custom_questions`, plans), validated by `schema`. */
  json<S extends z.ZodType>(schema: S) {
    return text().transform((value, ctx): z.output<S> => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'Must be valid JSON.' });
        return z.NEVER;
      }
      const result = schema.safeParse(parsed);
      if (!result.success) {
        const issue = result.error.issues[0]!;
        const where = issue.path.length ? ` (at ${issue.path.join('.')})` : '';
        ctx.addIssue({ code: 'custom', message: `${issue.message}${where}` });
        return z.NEVER;
      }
      return result.data;
    });
  },

  /**
   * A comma-separated list (`a,b,c`), or an array sent as `a[]=...`, `a[0]=...` or a repeated key;
   * blanks dropped. Always bounded (at most `max`, by default MAX_LIST_ITEMS), and refused past it
   * before any v2 call: a list of 20,000 ids would otherwise be 20,000 v2 calls. Every v1 list is
   * a list of ids: each item is at most MAX_ID_CHARS characters.
   */
  list(opts: { max?: number } = {}) {
    const max = opts.max ?? MAX_LIST_ITEMS;
    return z
      .preprocess(
        (value: unknown) => {
          const parts: unknown = Array.isArray(value)
            ? value.flatMap((v) => String(v).split(','))
            : typeof value === 'string'
              ? value.split(',')
              : value;
          if (!Array.isArray(parts)) return parts;
          const kept = (parts as string[]).map((p) => p.trim()).filter((p) => p !== '');
          return kept.length === 0 ? undefined : kept;
        },
        z.array(z.string(), { error: 'Must be a comma-separated list.' }),
      )
      .refine((items) => items.length <= max, `At most ${max} values.`)
      .refine((items) => items.every((item) => item.length <= MAX_ID_CHARS), `Each value must be at most ${MAX_ID_CHARS} characters.`);
  },

  /** An email address. */
  email() {
    const schema = z.preprocess(
      single,
      z
        .string({ error: 'Must be an email address.' })
        .max(128, 'Must be at most 128 characters.')
        .regex(EMAIL, 'Must be an email address.'),
    );
    return read(schema, (value) => {
      const text = boundedText(value, 0, 128);
      return text !== NOT_READ && EMAIL.test(text) ? text : NOT_READ;
    });
  },

  /** A date-time as v1 took it: `2012-11-25T12:00:00Z` (or without Z, with a timezone). */
  dateTime() {
    const schema = z.preprocess(
      single,
      z
        .string({ error: 'Must be a date-time such as 2012-11-25T12:00:00Z.' })
        .regex(DATE_TIME, 'Must be a date-time such as 2012-11-25T12:00:00Z.'),
    );
    return read(schema, (value) => {
      const text = singleText(value);
      return text !== NOT_READ && DATE_TIME.test(text) ? text : NOT_READ;
    });
  },

  /** An uploaded file (multipart). */
  file() {
    return z.preprocess(single, z.instanceof(File, { error: 'Must be a file upload (multipart/form-data).' }));
  },
};

/** A zod object over v1 params: unknown params (api_key, data_type, extras) are ignored, as v1 did. */
export function v1Params<T extends Record<string, z.ZodType>>(shape: T) {
  return z.object(shape);
}
