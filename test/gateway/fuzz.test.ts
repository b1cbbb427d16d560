import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { rawExchange } from '../support/raw-http.js';

/**
 * Whatever bytes arrive as a request — path, headers, body, or no HTTP at all — the gateway answers
 * a v1 envelope or closes the connection cleanly: never a crash, an empty 400, an HTML page or a
 * stack trace. A bounded number of seeded runs, so the suite stays fast and repeatable.
 */
let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ V1_BODY_TIMEOUT_MS: '200', V1_HEADERS_TIMEOUT_MS: '500', V1_REQUEST_TIMEOUT_MS: '1000' });
});
afterAll(() => gw.close());

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');
const token = fc.stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,12}$/);
const pathChars = fc.stringMatching(/^[\x21-\x7e]{0,60}$/);

/** A request that is roughly HTTP, with arbitrary parts. */
const roughRequest = fc
  .record({
    method: fc.oneof(fc.constantFrom('POST', 'GET', 'HEAD', 'PUT', 'OPTIONS'), token),
    path: fc.oneof(
      pathChars.map((p) => `/v1/${p}`),
      pathChars.map((p) => `/${p}`),
      fc.constantFrom('/v1/user/get', '/v1/user/checkemail', '/sandbox/accounts', '/v2/users/me'),
    ),
    version: fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/9.9'),
    headers: fc.array(fc.tuple(token, fc.uint8Array({ maxLength: 40 }).map(latin1)), { maxLength: 4 }),
    contentType: fc.constantFrom(
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'text/plain',
      'application/json',
      '',
    ),
    body: fc.uint8Array({ maxLength: 300 }),
    lengthDelta: fc.constantFrom(0, 0, 0, -3, 5),
  })
  .map((r) => {
    const head = [`${r.method} ${r.path} ${r.version}`, 'Host: x'];
    if (r.contentType) head.push(`Content-Type: ${r.contentType}`);
    for (const [name, value] of r.headers) head.push(`${name}: ${value.replace(/[\r\n]/g, '')}`);
    head.push(`Content-Length: ${Math.max(0, r.body.length + r.lengthDelta)}`, 'Connection: close');
    return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), Buffer.from(r.body)]);
  });

/** Bytes that are not HTTP at all. */
const garbage = fc.uint8Array({ minLength: 1, maxLength: 200 }).map((bytes) => Buffer.from(bytes));

function expectSafe(bytes: Buffer, reply: Awaited<ReturnType<typeof rawExchange>>): void {
  const context = JSON.stringify(bytes.toString('latin1').slice(0, 200));
  expect(reply.raw, context).not.toMatch(/<html|<!doctype|\bat .+\.(ts|js):\d+/i);
  for (const response of reply.responses) {
    expect(response.status, context).not.toBe(500);
    if (response.status === 400 || response.status === 404) {
      expect(response.body, `${context}: an empty or plain ${response.status}`).toMatch(/^\{"error":\{"code":\d+/);
    }
  }
}

describe('arbitrary bytes', () => {
  it('rough HTTP requests get a v1 envelope or a clean close', async () => {
    await fc.assert(
      fc.asyncProperty(roughRequest, async (bytes) => expectSafe(bytes, await rawExchange(gw.port, bytes, { waitMs: 300 }))),
      { numRuns: 120, seed: 20261123 },
    );
  });

  it('bytes that are no HTTP at all get a v1 envelope or a clean close', async () => {
    await fc.assert(
      fc.asyncProperty(garbage, async (bytes) => expectSafe(bytes, await rawExchange(gw.port, bytes, { waitMs: 300 }))),
      { numRuns: 60, seed: 20261123 },
    );
  });

  it('the gateway still answers afterwards', async () => {
    expect(await gw.v1('/user/checkemail', { email: 'owner@sandbox.v1gate.local' })).toEqual({ existed_email: true });
  });
});
