import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Today's published v2 documents (`spec/reference/today/*.json`, OpenAPI 3.0, one per product) as
 * an oracle: which operation a concrete `METHOD /path` is, and what is wrong with an answer or a
 * request of it. The old reference (`openapi.ts`) stays the oracle of the legacy mode.
 *
 * Two readings of the documents, both because they describe objects without closing them:
 * - A request's object may hold only the properties its schema (with its allOf/anyOf/oneOf
 *   branches) names: the service ignores or refuses the rest, and either way the field does not
 *   do what the sender meant. Answers are not held to that: the documents list what is promised,
 *   and a field more is no break of it.
 * - `oneOf` is read as `anyOf`: with open objects, a value of one branch often fits another too,
 *   and "exactly one" would then refuse what the documents mean to allow.
 */

const PRODUCTS = ['meetings', 'users', 'accounts', 'team-chat', 'rooms'] as const;

type Schema = Record<string, unknown>;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

export interface TodayOperation {
  method: string;
  /** The path as the documents write it, e.g. `/users/{userId}/meetings`. */
  template: string;
  product: string;
  operation: Operation;
}

/** One thing the documents say otherwise about one exchange. */
export interface TodayProblem {
  side: 'answer' | 'request' | 'operation';
  /** `METHOD /template` (the concrete path when no operation has it). */
  operation: string;
  /** Where: `status 201 /settings/x`, `query type`, `body /settings`; array indices written `*`. */
  place: string;
  message: string;
}

interface Route {
  op: TodayOperation;
  pattern: RegExp;
  /** Literal segments first: `/users/email` is not `/users/{userId}`. */
  rank: number[];
}

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
const compiled = new Map<Schema, ValidateFunction>();

function loadRoutes(): Route[] {
  const routes: Route[] = [];
  for (const product of PRODUCTS) {
    const file = fileURLToPath(new URL(`../../spec/reference/today/${product}.json`, import.meta.url));
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { paths: Record<string, Record<string, Operation>> };
    for (const [template, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (method === 'parameters' || typeof operation !== 'object') continue;
        const segments = template.split('/').slice(1);
        const pattern = new RegExp(`^/${segments.map((s) => (/^\{.+\}$/.test(s) ? '[^/]+' : escapeRegExp(s))).join('/')}$`);
        const rank = segments.map((s) => (/^\{.+\}$/.test(s) ? 1 : 0));
        routes.push({ op: { method: method.toUpperCase(), template, product, operation }, pattern, rank });
      }
    }
  }
  return routes;
}

const routes = loadRoutes();

/** The documents' operation of `method path` (path below `/v2`, still encoded), if they have it. */
export function todayOperation(method: string, path: string): TodayOperation | undefined {
  const matching = routes.filter((r) => r.op.method === method && r.pattern.test(path));
  matching.sort((a, b) => compareRank(a.rank, b.rank));
  return matching[0]?.op;
}

/** Every operation the documents hold. */
export function todayOperations(): TodayOperation[] {
  return routes.map((r) => r.op);
}

function compareRank(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** oneOf read as anyOf, through the whole schema (a copy: the documents stay as published). */
function readable(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(readable);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key === 'oneOf' ? 'anyOf' : key, readable(value)]));
}

function validatorOf(schema: Schema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(readable(schema) as Schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/** `value`'s problems against `schema`, each at `prefix` + its place (array indices as `*`). */
export function schemaProblemsOf(schema: Schema, value: unknown, prefix: string): { place: string; message: string }[] {
  const validate = validatorOf(schema);
  if (validate(value)) return [];
  return (validate.errors ?? [])
    .filter((e: ErrorObject) => e.keyword !== 'anyOf' && e.keyword !== 'if')
    .map((e: ErrorObject) => ({ place: `${prefix}${generalPlace(e.instancePath)}`.trimEnd(), message: messageOf(e) }));
}

function messageOf(e: ErrorObject): string {
  if (e.keyword === 'enum') return `must be one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`;
  return e.message ?? 'invalid';
}

export function generalPlace(instancePath: string): string {
  return instancePath.replace(/\/\d+(?=\/|$)/g, '/*');
}

/**
 * The properties of `value` that `schema` does not name, as places under `prefix`: the request
 * reading above. An object schema with no `properties` (a free-form map) names every key.
 */
export function undeclaredProperties(schema: Schema | undefined, value: unknown, prefix: string): string[] {
  if (!schema || value === null || typeof value !== 'object') return [];
  const branches = [schema, ...(['allOf', 'anyOf', 'oneOf'] as const).flatMap((k) => (schema[k] as Schema[] | undefined) ?? [])];
  if (Array.isArray(value)) {
    const items = branches.map((b) => b.items as Schema | undefined).find(Boolean);
    return [...new Set(value.flatMap((item) => undeclaredProperties(items, item, `${prefix}/*`)))];
  }
  const declared = new Map<string, Schema[]>();
  let open = false;
  for (const branch of branches) {
    const properties = branch.properties as Record<string, Schema> | undefined;
    if (properties) for (const [name, inner] of Object.entries(properties)) declared.set(name, [...(declared.get(name) ?? []), inner]);
    if (branch.additionalProperties !== undefined && branch.additionalProperties !== false) open = true;
  }
  if (declared.size === 0) open = true;
  const found: string[] = [];
  for (const [key, inner] of Object.entries(value)) {
    const schemas = declared.get(key);
    if (!schemas) {
      if (!open) found.push(`${prefix}/${key}`);
      continue;
    }
    // A property named in several branches is closed only by what none of them names.
    const per = schemas.map((s) => new Set(undeclaredProperties(s, inner, `${prefix}/${key}`)));
    found.push(...[...per[0]!].filter((place) => per.every((set) => set.has(place))));
  }
  return found;
}
