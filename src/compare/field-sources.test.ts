import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ALL_ENDPOINTS } from '../translators/endpoints.js';
import type { EndpointDefinition } from '../translators/kit/define.js';
import type { CompositeMapping, FieldRow } from '../v1/field-map.js';
import { leafField } from './diff.js';
import { describeSource, fieldSources, type FieldSource } from './field-sources.js';
import { MAPPING_MODULES, mappingHomes } from './mapping-files.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const swagger = JSON.parse(readFileSync(`${root}spec/reference/v1-swagger.json`, 'utf8')) as {
  paths: Record<string, { post?: { responses?: { '200'?: { examples?: { 'application/json'?: unknown } } } } }>;
};

/** Every field of a v1 answer, as diff paths (`users[].email`). */
function fieldsOf(value: unknown, path = '', out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) fieldsOf(item, `${path}[]`, out);
  else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      const field = path ? `${path}.${key.trim()}` : key.trim();
      out.add(field);
      fieldsOf(inner, field, out);
    }
  }
  return out;
}

/** The answer-side rows and composites of an endpoint, by v1 field. */
function answerMappings(endpoint: EndpointDefinition): Map<string, FieldRow | CompositeMapping> {
  const mappings = new Map<string, FieldRow | CompositeMapping>();
  for (const row of (endpoint.tables ?? []).flat()) if (row.direction !== 'in' && !mappings.has(row.v1)) mappings.set(row.v1, row);
  for (const composite of endpoint.composites ?? [])
    for (const v1 of Object.keys(composite.fields)) if (!mappings.has(v1)) mappings.set(v1, composite);
  return mappings;
}

const sources = fieldSources(ALL_ENDPOINTS);

describe('the source of each field of each endpoint', () => {
  const walked = ALL_ENDPOINTS.flatMap((endpoint) => {
    const example = swagger.paths[endpoint.path]?.post?.responses?.['200']?.examples?.['application/json'];
    return [...fieldsOf(example)].map((field) => ({ endpoint, field }));
  });

  it('walks every field of every endpoint the reference shows an answer of', () => {
    expect(new Set(walked.map((w) => w.endpoint.path)).size).toBeGreaterThanOrEqual(ALL_ENDPOINTS.length - 3);
    expect(walked.length).toBeGreaterThan(1000);
  });

  it('names a mapping row only where one of the endpoint’s own rows answers the field (or the value it is part of), and names it where it is written', () => {
    const homes = mappingHomes();
    for (const { endpoint, field } of walked) {
      const source = sources(endpoint.path, field);
      if (source.kind !== 'mapping') continue;
      const mappings = answerMappings(endpoint);
      const names = [leafField(field), ...field.split('.').slice(0, -1).map(leafField)];
      const mapping = names.map((name) => mappings.get(name)).find((m) => m !== undefined);
      expect(mapping, `${endpoint.path} ${field}`).toBeDefined();
      expect(homes.get(mapping!), `${endpoint.path} ${field}`).toEqual({ file: source.file, table: source.table });
      const table = MAPPING_MODULES[source.file]![source.table];
      expect(table === mapping || (Array.isArray(table) && table.includes(mapping)), `${endpoint.path} ${field}`).toBe(true);
      expect(source.row.startsWith('v1' in mapping! ? `${mapping.v1} ↔ ${mapping.v2}` : Object.keys(mapping!.fields).join(' + '))).toBe(
        true,
      );
    }
  });

  it('says "minted by the service" only for identifiers, links, creation times and tokens no row of the endpoint answers', () => {
    for (const { endpoint, field } of walked) {
      if (sources(endpoint.path, field).kind !== 'minted') continue;
      expect(answerMappings(endpoint).has(leafField(field)), `${endpoint.path} ${field}`).toBe(false);
      expect(leafField(field)).toMatch(
        /^(id|uuid|.+_id|.+_uuid|.+_url|created_at|token|zak|zpk|h323_password|encrypted_password|next_page_token)$/,
      );
    }
  });

  it('names the translator file that defines the endpoint for every other field, and that file exists', () => {
    for (const { endpoint, field } of walked) {
      const source = sources(endpoint.path, field);
      expect(source.kind, `${endpoint.path} ${field}`).toMatch(/^(mapping|minted|translator)$/);
      if (source.kind !== 'translator') continue;
      expect(source.file, `${endpoint.path} ${field}`).toBe(endpoint.source);
      expect(existsSync(`${root}${source.file}`), source.file).toBe(true);
      expect(readFileSync(`${root}${source.file}`, 'utf8')).toContain('defineEndpoint(');
    }
  });

  it('gives the fields the old column called "no v2 home" their real source', () => {
    const text = (path: string, field: string) => describeSource(sources(path, field));
    expect(text('/user/get', 'id')).toBe('mappings/user-fields.ts USER_FIELDS: id ↔ id (same)');
    expect(text('/user/get', 'email')).toBe('mappings/user-fields.ts USER_FIELDS: email ↔ email (same)');
    expect(text('/meeting/get', 'join_url')).toBe('minted by the service');
    expect(text('/meeting/get', 'created_at')).toBe('minted by the service');
    expect(text('/meeting/get', 'status')).toBe('computed by src/translators/sessions/get.ts');
    expect(text('/user/list', 'page_count')).toBe('computed by src/translators/users/list.ts');
    expect(text('/meeting/get', '(answer)')).toBe('the whole answer');
    expect(sources('/no/such', 'id')).toEqual({ kind: 'unknown endpoint' } satisfies FieldSource);
  });
});

describe('the mapping files', () => {
  it('lists every module of mappings/ that holds rows or composites, and every row an endpoint uses has its home there', () => {
    const withRows = readdirSync(`${root}mappings`)
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .filter((file) =>
        /fieldTable\(|: FieldTable\b|: CompositeMapping\b|compositeMapping\(/.test(readFileSync(`${root}mappings/${file}`, 'utf8')),
      )
      .map((file) => `mappings/${file}`);
    for (const file of withRows) expect(Object.keys(MAPPING_MODULES)).toContain(file);
    const homes = mappingHomes();
    for (const endpoint of ALL_ENDPOINTS) {
      for (const row of (endpoint.tables ?? []).flat()) expect(homes.has(row), `${endpoint.path} ${row.v1}`).toBe(true);
      for (const composite of endpoint.composites ?? []) expect(homes.has(composite), `${endpoint.path} ${composite.name}`).toBe(true);
    }
  });
});
