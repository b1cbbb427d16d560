import { Ajv, type ErrorObject } from 'ajv';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Validates sandbox answers against the response schemas of the service's own published v2
 * OpenAPI 2.0 spec (`spec/reference/v2-openapi.json`). Where our v2 spec and the reference
 * disagree, our spec wins: such places are listed in KNOWN_DISAGREEMENTS with the reason.
 */

const specPath = fileURLToPath(new URL('../../spec/reference/v2-openapi.json', import.meta.url));
const spec = JSON.parse(readFileSync(specPath, 'utf8')) as {
  paths: Record<string, Record<string, { responses?: Record<string, { schema?: unknown }> }>>;
};

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema(spec, 'v2');

/**
 * Schema places where our spec (which wins) says otherwise, as `instancePath` patterns per path.
 * Each entry says why.
 */
export const KNOWN_DISAGREEMENTS: { path: RegExp; instancePath: RegExp; why: string }[] = [
  {
    // Full meeting/webinar (create, retrieve), list items, the registration answer, and the
    // meetings of a user's recording list.
    path: /^\/(users\/\{userId\}\/(meetings|webinars|recordings)|(meetings\/\{meetingId\}|webinars\/\{webinarId\})(\/registrants)?)$/,
    instancePath: /^(\/(meetings|webinars)\/\d+)?\/id$/,
    why: "The reference types meeting and webinar ids as strings; the real service and our spec answer integers (the ended meeting's `id` is an integer in both).",
  },
  {
    path: /^\/(users(\/\{userId\})?|groups\/\{groupId\}\/members|im\/groups\/\{groupId\}\/members)$/,
    instancePath: /^(\/(users|members)\/\d+)?\/pmi$/,
    why: "The reference types a user's pmi as a string; today's documents (spec/reference/today/users.json) type it as an integer, and the sandbox answers the number.",
  },
  {
    path: /^\/users(\/\{userId\})?$/,
    instancePath: /^(\/users\/\d+)?\/type$/,
    why: "The reference's user types are 1, 2 and 3; today's are 1, 2, 4 and 99 (spec/reference/today/users.json), which the sandbox takes and answers.",
  },
];

export interface SchemaProblem {
  instancePath: string;
  message: string;
}

/** Problems with `body` as the answer of `method path` (path as the reference writes it, e.g. `/users/{userId}`). */
export function schemaProblems(method: string, path: string, status: number, body: unknown): SchemaProblem[] {
  const operation = spec.paths[path]?.[method.toLowerCase()];
  if (!operation) throw new Error(`The reference v2 spec has no ${method} ${path}`);
  const response = operation.responses?.[String(status)];
  if (!response) throw new Error(`The reference v2 spec has no ${status} answer for ${method} ${path}`);
  if (!response.schema) return body === undefined || body === '' ? [] : [{ instancePath: '', message: 'expected no body' }];
  const pointer = `v2#/paths/${escapePointer(path)}/${method.toLowerCase()}/responses/${status}/schema`;
  const validate = ajv.getSchema(pointer) ?? ajv.compile({ $ref: pointer });
  if (validate(body)) return [];
  return (validate.errors ?? [])
    .filter((e: ErrorObject) => !KNOWN_DISAGREEMENTS.some((d) => d.path.test(path) && d.instancePath.test(e.instancePath)))
    .map((e: ErrorObject) => ({ instancePath: e.instancePath, message: e.message ?? 'invalid' }));
}

/** Every operation of the reference, as `{method, path}` with the method in upper case. */
export function referenceOperations(): { method: string; path: string }[] {
  return Object.entries(spec.paths).flatMap(([path, operations]) =>
    Object.keys(operations)
      .filter((method) => method !== 'parameters')
      .map((method) => ({ method: method.toUpperCase(), path })),
  );
}

function escapePointer(path: string): string {
  return path.replace(/~/g, '~0').replace(/\//g, '~1').replace(/\{/g, '%7B').replace(/\}/g, '%7D');
}
