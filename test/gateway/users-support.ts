import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { TestGateway } from '../support/gateway.js';

/** Helpers of the users integration tests: v1 shapes from the v1 reference, and quick fixtures. */

const swaggerPath = fileURLToPath(new URL('../../../shared/reference/v1-swagger.json', import.meta.url));
const swagger = JSON.parse(readFileSync(swaggerPath, 'utf8')) as {
  paths: Record<string, { post: { responses: { '200': { examples: { 'application/json': any } } } } }>;
};

/** The v1 reference's example answer of a v1 path. */
export const v1Example = (path: string) => swagger.paths[path]!.post.responses['200'].examples['application/json'];

/** The JSON type of every user field, as the v1 reference's user examples show it. */
const USER_FIELD_TYPES: Record<string, string> = {};
for (const example of [v1Example('/user/list').users[0], v1Example('/user/ssocreate'), v1Example('/user/get'), v1Example('/user/getbyemail'), v1Example('/user/autocreate')]) {
  for (const [field, value] of Object.entries(example)) USER_FIELD_TYPES[field] = typeof value;
}

/** The answer holds exactly `fields`, each of the JSON type the v1 reference gives it. */
export function expectUserShape(answer: Record<string, unknown>, fields: readonly string[]): void {
  expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
  expect(Object.keys(answer).sort()).toEqual([...fields].sort());
  for (const field of fields) {
    expect(USER_FIELD_TYPES[field], `the reference types ${field}`).toBeDefined();
    expect(typeof answer[field], field).toBe(USER_FIELD_TYPES[field]);
  }
}

/** The answer has the keys and JSON types of the v1 reference's example for `path`. */
export function expectExampleShape(answer: Record<string, unknown>, path: string): void {
  expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
  const example = v1Example(path);
  expect(Object.keys(answer).sort()).toEqual(Object.keys(example).sort());
  for (const [field, value] of Object.entries(example)) expect(typeof answer[field], field).toBe(typeof value);
}

/** A v1 timestamp (`2012-11-25T12:00:00Z`). */
export const V1_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

let counter = 0;
export const uniqueEmail = (tag = 'user') => `${tag}.${process.pid}.${Date.now()}.${++counter}@example.com`;

/** A fresh active user made directly in v2 (the fixture side of side-by-side tests). */
export async function v2User(gw: TestGateway, info: Record<string, unknown> = {}, action = 'custCreate'): Promise<{ id: string; email: string }> {
  const answer = await gw.v2('POST', '/users', { body: { action, user_info: { email: uniqueEmail(), type: 2, first_name: 'Ada', last_name: 'Lovelace', ...info } } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

export const v2Get = async (gw: TestGateway, path: string, query?: Record<string, string>) => {
  const answer = await gw.v2('GET', path, query ? { query } : {});
  return answer.body;
};

/** v1 answers a v1 error with this code (and a message matching `message`, when given). */
export function expectV1Error(answer: any, code: number, message?: RegExp | string): void {
  expect(answer.error, JSON.stringify(answer)).toBeDefined();
  expect(answer.error.code, answer.error.message).toBe(code);
  if (typeof message === 'string') expect(answer.error.message).toBe(message);
  else if (message) expect(answer.error.message).toMatch(message);
}

/** A tiny valid JPEG (SOI, APP0 JFIF, EOI) — enough for a content check. */
export const JPEG_BYTES = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9]);
export const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]);

/** A v1 call as multipart/form-data (the picture upload), credentials added. */
export async function v1Multipart(gw: TestGateway, path: string, fields: Record<string, string | File>): Promise<any> {
  const form = new FormData();
  for (const [key, value] of Object.entries({ ...gw.credentials, ...fields })) form.append(key, value);
  const response = await fetch(`${gw.url}/v1${path}`, { method: 'POST', body: form });
  return response.json();
}
