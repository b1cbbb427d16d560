import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyV1Path } from '../../src/ratelimit/classify.js';
import { verifySignature } from '../../src/v2-contract/sdk-signature.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

/** POST /sdk/signature on a real gateway over its real sandbox. */
describe('POST /sdk/signature', () => {
  let gateway: TestGateway;
  const gateCalls: Array<{ apiKey: string; path: string }> = [];
  let refuse = false;

  beforeAll(async () => {
    // A small body limit, so a body past it is cheap to send.
    gateway = await startTestGateway(
      { V1_MAX_BODY_BYTES: '2048' },
      {
        inbound: {
          async check(apiKey, path): Promise<{ allowed: boolean; headers: Record<string, string> }> {
            gateCalls.push({ apiKey, path });
            return refuse ? { allowed: false, headers: { 'Retry-After': '1' } } : { allowed: true, headers: { 'X-RateLimit-Limit': '10' } };
          },
        },
      },
    );
  });
  afterAll(async () => {
    await gateway.close();
  });

  async function post(body: string, contentType: string): Promise<{ status: number; headers: Headers; body: any }> {
    const response = await fetch(`${gateway.url}/sdk/signature`, { method: 'POST', headers: { 'content-type': contentType }, body });
    return { status: response.status, headers: response.headers, body: await response.json() };
  }
  const form = (fields: Record<string, string>) => post(new URLSearchParams(fields).toString(), 'application/x-www-form-urlencoded');
  const json = (fields: Record<string, unknown>) => post(JSON.stringify(fields), 'application/json');

  it('signs a form request for a key the service accepts, verifiable with the same inputs', async () => {
    const before = Date.now();
    const answer = await form({ ...gateway.credentials, meeting_number: '123456789', role: '1' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const result = verifySignature(answer.body.signature, {
      apiKey: gateway.credentials.api_key,
      apiSecret: gateway.credentials.api_secret,
      meetingNumber: '123456789',
      role: 1,
    });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.ts).toBeGreaterThanOrEqual(before - 30_000);
  });

  it('takes JSON with the SDK’s own field name and numbers', async () => {
    const answer = await json({ ...gateway.credentials, meetingNumber: 987654321, role: 0 });
    expect(answer.body.signature).toMatch(/^[A-Za-z0-9_-]+$/);
    const check = verifySignature(answer.body.signature, {
      apiKey: gateway.credentials.api_key,
      apiSecret: gateway.credentials.api_secret,
      meetingNumber: '987654321',
      role: 0,
    });
    expect(check.ok).toBe(true);
  });

  it('refuses a secret the service does not accept', async () => {
    const answer = await form({ api_key: gateway.credentials.api_key, api_secret: 'wrong-secret', meeting_number: '123', role: '0' });
    expect(answer.body).toEqual({ error: { code: 102, message: expect.any(String) } });
  });

  it.each([
    [{ meeting_number: '123', role: '0' }, 101],
    [{ api_key: 'k', meeting_number: '123', role: '0' }, 101],
    [{ meeting_number: '1234567890123', role: '0' }, 300],
    [{ meeting_number: '12a', role: '0' }, 300],
    [{ role: '0' }, 300],
    [{ meeting_number: '123', role: '2' }, 300],
    [{ meeting_number: '123' }, 300],
  ])('answers a clear error for bad input %o', async (fields, code) => {
    const withCredentials = code === 101 ? fields : { ...gateway.credentials, ...fields };
    const answer = await form(withCredentials);
    expect(answer.body.error.code).toBe(code);
    expect(answer.body.error.message).toMatch(/\w/);
  });

  it('answers a clear error for a JSON body that is not an object', async () => {
    expect((await post('[1]', 'application/json')).body.error).toEqual({ code: 300, message: 'The JSON body must be an object.' });
    expect((await post('{not json', 'application/json')).body.error).toEqual({ code: 300, message: 'The JSON body could not be parsed.' });
  });

  it('refuses a JSON value that is not text or a whole number by its field, and ignores fields it does not read', async () => {
    for (const [field, value] of [
      ['role', true],
      ['role', 0.5],
      ['meetingNumber', -1],
      ['meetingNumber', null],
      ['expirationSeconds', ['1800']],
    ] as const) {
      const answer = await json({ ...gateway.credentials, meetingNumber: 123, role: 0, [field]: value });
      expect(answer.body.error).toEqual({ code: 300, message: expect.stringContaining(field) });
    }
    const signed = await json({ ...gateway.credentials, meetingNumber: 123, role: 0, lang: { en: true }, leaveUrl: null });
    expect(signed.body.signature).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('reads the pair as the facade does: trimmed, and a repeated api_key is no key', async () => {
    const { api_key: apiKey, api_secret: apiSecret } = gateway.credentials;
    const padded = await form({ api_key: ` ${apiKey} `, api_secret: `${apiSecret}\r\n`, meeting_number: '123', role: '0' });
    expect(verifySignature(padded.body.signature, { apiKey, apiSecret, meetingNumber: '123', role: 0 }).ok).toBe(true);
    const repeated = new URLSearchParams([
      ['api_key', apiKey],
      ['api_key', apiKey],
      ['api_secret', apiSecret],
      ['meeting_number', '123'],
      ['role', '0'],
    ]);
    expect((await post(repeated.toString(), 'application/x-www-form-urlencoded')).body.error.code).toBe(101);
  });

  it('refuses a body or fields it cannot read as the facade does, before the limit is asked', async () => {
    gateCalls.length = 0;
    const undecodable = await post(
      `${new URLSearchParams(gateway.credentials).toString()}&meeting_number=%zz&role=0`,
      'application/x-www-form-urlencoded',
    );
    expect(undecodable.body.error).toEqual({ code: 300, message: 'Parameter meeting_number has a malformed percent-escape "%zz".' });
    expect(undecodable.headers.get('connection')).not.toBe('close');
    const tooLarge = await form({ ...gateway.credentials, meeting_number: '123', role: '0', pad: 'x'.repeat(4096) });
    expect(tooLarge.body.error).toEqual({ code: 300, message: 'The request body is larger than the 2048 bytes v1gate accepts.' });
    expect(tooLarge.headers.get('connection')).toBe('close');
    const unsupported = await post('meeting_number=123', 'text/xml');
    expect(unsupported.body.error.message).toMatch(/^Unsupported Content-Type "text\/xml"/);
    expect(gateCalls).toEqual([]);
  });

  it('is rate limited per key in its own class', async () => {
    gateCalls.length = 0;
    refuse = true;
    const answer = await form({ ...gateway.credentials, meeting_number: '123', role: '0' });
    refuse = false;
    expect(gateCalls).toEqual([{ apiKey: gateway.credentials.api_key, path: '/sdk/signature' }]);
    expect(answer.body.error.code).toBe(403);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(classifyV1Path('/sdk/signature').name).toBe('sdk-signature');
  });

  it('answers any other method 405 with Allow: POST and the v1 envelope, asking no limit', async () => {
    gateCalls.length = 0;
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const response = await fetch(`${gateway.url}/sdk/signature?meeting_number=1&role=0`, { method });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow'), method).toBe('POST');
      expect(await response.json(), method).toEqual({
        error: { code: 300, message: `v1 calls are POST requests, not ${method}.` },
      });
    }
    const head = await fetch(`${gateway.url}/sdk/signature`, { method: 'HEAD' });
    expect([head.status, head.headers.get('allow')]).toEqual([405, 'POST']);
    expect(gateCalls).toEqual([]);
  });
});

describe('POST /sdk/signature under ALLOWED_API_KEYS', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway({ ALLOWED_API_KEYS: 'only-this-key' });
  });
  afterAll(() => gateway.close());

  // Without the allow-list the same pair signs (the first case above): the sandbox accepts it.
  it('refuses a key the allow-list leaves out, as the v1 facade does', async () => {
    const fields = new URLSearchParams({ ...gateway.credentials, meeting_number: '123456789', role: '0' }).toString();
    const post = (path: string) =>
      fetch(`${gateway.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: fields });
    const signer = await post('/sdk/signature');
    const facade = await post('/v1/user/checkemail');
    const refusal = (await facade.json()) as { error: { code: number; message: string } };
    expect(refusal.error.code).toBe(102);
    expect(signer.status).toBe(200);
    expect(await signer.json()).toEqual(refusal);
  });
});
