import { mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED, createLogger } from '../../src/ops/logging.js';
import { defineEndpoint } from '../../src/translators/kit/define.js';
import { v1Params } from '../../src/v1/param-types.js';
import { keyHash } from '../../src/ops/metrics.js';
import { KnownSecrets } from '../../src/shared/secrets.js';
import { auditLogLine } from '../support/log-audit.js';
import { readJsonLines } from '../support/json-lines.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

/** The service's tracking id as the sandbox writes it, as public captures show it. */
const TRACKING_ID = expect.stringMatching(/^v=2\.0;clid=us06;rid=WEB_[0-9a-f]{32}$/);

/** One JSON line per v1 call, secrets redacted where every line passes. */
describe('call logs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'v1gate-log-test-'));
  const file = join(dir, 'calls.log');
  let gateway: TestGateway;
  const lines = () => readJsonLines<any>(file);

  beforeAll(async () => {
    gateway = await startTestGateway({ LOG_FILE: file, LOG_LEVEL: 'info', TRUSTED_PROXIES: '127.0.0.1/8,::1' });
  });
  afterAll(async () => {
    await gateway.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes one line per call with the request id, endpoint, code, latency and v2 calls', async () => {
    const response = await fetch(`${gateway.url}/v1/user/checkemail`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': 'log-trace-1' },
      body: new URLSearchParams({ ...gateway.credentials, email: 'owner@sandbox.v1gate.local' }).toString(),
    });
    expect(response.status).toBe(200);
    const line = lines().find((l) => l.reqId === 'log-trace-1');
    expect(line).toMatchObject({
      level: 30,
      service: 'v1gate',
      msg: 'v1 call',
      endpoint: '/user/checkemail',
      code: 0,
      keyHash: keyHash(gateway.credentials.api_key),
    });
    expect(line.ms).toBeGreaterThanOrEqual(0);
    // Each v2 call with the service's tracking id of its answer, which its support asks for.
    expect(line.v2).toEqual([{ method: 'GET', path: '/users/email', status: 200, ms: expect.any(Number), trackingId: TRACKING_ID }]);
    expect(JSON.stringify(line)).not.toContain(gateway.credentials.api_key);
  });

  it("carries the client's address: the socket's, and the one a trusted proxy names (TRUSTED_PROXIES=127.0.0.1/8)", async () => {
    const call = (id: string, headers: Record<string, string> = {}) =>
      fetch(`${gateway.url}/v1/user/checkemail`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': id, ...headers },
        body: new URLSearchParams({ ...gateway.credentials, email: 'owner@sandbox.v1gate.local' }).toString(),
      }).then((r) => r.text());
    await call('addr-direct');
    await call('addr-proxied', { 'x-forwarded-for': '203.0.113.9' });
    const direct = lines().find((l) => l.reqId === 'addr-direct');
    expect(direct.peer).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
    expect(direct.client).toBe(direct.peer);
    const proxied = lines().find((l) => l.reqId === 'addr-proxied');
    expect(proxied).toMatchObject({ client: '203.0.113.9', peer: direct.peer });
  });

  it("redacts a password a v1 call carries, and logs a client's mistake at info, with its kind", async () => {
    await gateway.v1Raw('/user/updatepassword', { id: 'nobody-here', password: 'hunter2-secret' }, {});
    const line = lines().find((l) => l.endpoint === '/user/updatepassword');
    expect(line.params.password).toBe(REDACTED);
    expect(line).toMatchObject({ level: 30, msg: 'v1 call failed', code: 1001, kind: 'v2-coded' });
    // The v1 error's line quotes the tracking id of the v2 answer that made it.
    expect(line.v2.at(-1)).toMatchObject({ status: 404, trackingId: TRACKING_ID });
    expect(readFileSync(file, 'utf8')).not.toContain('hunter2-secret');
    expect(readFileSync(file, 'utf8')).not.toContain(gateway.credentials.api_secret);
  });

  it("redacts the request's own api_secret by value wherever the line holds it: another field, an unknown path, a field name", async () => {
    const secret = 'a-secret-only-this-request-knows';
    const call = (path: string, fields: Record<string, string>, id: string) =>
      fetch(`${gateway.url}/v1${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': id },
        body: new URLSearchParams({ ...gateway.credentials, api_secret: secret, ...fields }).toString(),
      }).then((response) => response.text());
    await call('/user/checkemail', { email: `${secret}@example.com`, [`x_${secret}`]: '1' }, 'own-secret-1');
    await call(`/nowhere/${secret}`, {}, 'own-secret-2');
    const [known, unknown] = ['own-secret-1', 'own-secret-2'].map((id) => lines().find((l) => l.reqId === id));
    expect(known.params.email).toBe(`${REDACTED}@example.com`);
    expect(Object.keys(known.params)).toContain(`x_${REDACTED}`);
    expect(unknown.path).toBe(`/v1/nowhere/${REDACTED}`);
    expect(readFileSync(file, 'utf8')).not.toContain(secret);
  });
});

describe("a call's own lines", () => {
  /** An endpoint that writes a line of its own, then fails as a bug would. */
  const broken = defineEndpoint({
    path: '/test/broken',
    params: v1Params({}),
    v2Calls: [],
    handle(_params, ctx) {
      ctx.log.info({ step: 'before the bug' }, 'translator line');
      throw new TypeError('a bug in a translator');
    },
  });

  it("carry the request id: a translator's line, then the call's one line at error level with the bug's trace", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'v1gate-log-test-'));
    const file = join(dir, 'calls.log');
    const gateway = await startTestGateway({ LOG_FILE: file, LOG_LEVEL: 'info' }, { endpoints: [broken] });
    try {
      const answer = await fetch(`${gateway.url}/v1/test/broken`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': 'bug-trace-1' },
        body: new URLSearchParams(gateway.credentials).toString(),
      });
      expect(((await answer.json()) as { error: { message: string } }).error.message).toMatch(/^Internal gateway error/);
    } finally {
      await gateway.close();
    }
    const lines = readJsonLines<Record<string, any>>(file).filter((l) => l.reqId === 'bug-trace-1');
    rmSync(dir, { recursive: true, force: true });
    expect(lines.map((l) => l.msg)).toEqual(['translator line', 'v1 call failed']);
    expect(lines[0]).toMatchObject({ step: 'before the bug', level: 30, pid: process.pid });
    expect(lines[1]).toMatchObject({ level: 50, kind: 'internal', err: { type: 'TypeError', message: 'a bug in a translator' } });
    expect(lines[1]!.err.stack).toMatch(/at Object\.handle/);
  });
});

describe('the log file', () => {
  /** The files this process holds open (Linux). */
  const openFiles = () =>
    readdirSync('/proc/self/fd').flatMap((fd) => {
      try {
        return [readlinkSync(`/proc/self/fd/${fd}`)];
      } catch {
        return []; // closed while listed
      }
    });

  it('is closed when its gateway is, so a process that starts many gateways holds none of their files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'v1gate-log-test-'));
    const file = join(dir, 'closed.log');
    const gateway = await startTestGateway({ LOG_FILE: file, LOG_LEVEL: 'info', TRUSTED_PROXIES: '127.0.0.1/8,::1' });
    expect(openFiles()).toContain(file);
    await gateway.close();
    expect(openFiles()).not.toContain(file);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('redaction by configuration', () => {
  it('covers secret-named fields at any depth, in arrays too, and the audit sees what it missed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'v1gate-log-test-'));
    const file = join(dir, 'x.log');
    const { logger, close } = createLogger({ level: 'info', file });
    logger.info(
      { api_secret: 's1', headers: { authorization: 'Bearer abc.def.ghi' }, a: { b: { c: { password: 'p' } } }, list: [{ token: 't' }] },
      'x',
    );
    const line = readFileSync(file, 'utf8').trim();
    await close();
    rmSync(dir, { recursive: true, force: true });
    expect(JSON.parse(line)).toMatchObject({
      api_secret: REDACTED,
      headers: { authorization: REDACTED },
      a: { b: { c: { password: REDACTED } } },
      list: [{ token: REDACTED }],
    });
    expect(auditLogLine(line, ['s1'])).toEqual([]);
    expect(auditLogLine('{"password":"p"}', [])).toEqual(['.password is not redacted']);
    expect(auditLogLine('{"m":"Bearer eyJhbGciOiJI.eyJzdWIiOiIx.sig"}', [])).toEqual(['contains a JWT', 'contains a bearer token']);
    expect(auditLogLine('{"m":"my-secret"}', ['my-secret'])).toEqual(['contains a known secret']);
  });

  it("covers an error's message, stack and cause, which are no plain object", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'v1gate-log-test-'));
    const file = join(dir, 'x.log');
    const secrets = new KnownSecrets();
    secrets.add(['configured-secret-4711']);
    const { logger, close } = createLogger({ level: 'info', file, secrets });
    const cause = Object.assign(new Error('the cause saw configured-secret-4711'), { password: 'p' });
    logger.error({ err: new Error('failed with configured-secret-4711', { cause }) }, 'bug');
    const line = readFileSync(file, 'utf8').trim();
    await close();
    rmSync(dir, { recursive: true, force: true });
    expect(auditLogLine(line, ['configured-secret-4711'])).toEqual([]);
    // Still the error pino writes: its type, its message and its cause's (redacted), and its stack.
    expect(JSON.parse(line)).toMatchObject({
      err: { type: 'Error', message: `failed with ${REDACTED}: the cause saw ${REDACTED}`, stack: expect.any(String) },
    });
    expect(JSON.stringify(JSON.parse(line).err)).toContain(REDACTED);
  });
});
