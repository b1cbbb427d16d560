import type { TestGateway } from '../support/gateway.js';
import { expectV1Shape, pickShape, v1ExampleShape, type V1Shape } from '../support/v1-answers.js';

/** Helpers of the users integration tests only (the v1 answer checks are in ../support/v1-answers.ts). */

/** The JSON type of every user field, as the v1 reference's user examples show it. */
const USER_SHAPE: V1Shape = Object.assign(
  {},
  v1ExampleShape('/user/list', 'users'),
  ...['/user/ssocreate', '/user/get', '/user/getbyemail', '/user/autocreate'].map((path) => v1ExampleShape(path)),
);

/** The answer holds exactly `fields`, each of the JSON type the v1 reference's user examples give it. */
export function expectUserShape(answer: Record<string, unknown>, fields: readonly string[]): void {
  expectV1Shape(answer, pickShape(USER_SHAPE, fields));
}

export const v2Get = async (gw: TestGateway, path: string, query?: Record<string, string>) => {
  const answer = await gw.v2('GET', path, query ? { query } : {});
  return answer.body;
};

/** A tiny valid JPEG (SOI, APP0 JFIF, EOI) — enough for a content check. */
export const JPEG_BYTES = new Uint8Array([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9,
]);
export const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]);

/** A v1 call as multipart/form-data (the picture upload), credentials added. */
export async function v1Multipart(gw: TestGateway, path: string, fields: Record<string, string | File>): Promise<any> {
  const form = new FormData();
  for (const [key, value] of Object.entries({ ...gw.credentials, ...fields })) form.append(key, value);
  const response = await fetch(`${gw.url}/v1${path}`, { method: 'POST', body: form });
  return response.json();
}
