import { mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED, createLogger } from '../../src/ops/logging.js';
import { keyHash } from '../../src/ops/metrics.js';
import { auditLogLine } from '../support/log-audit.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

/** One JSON line per v1 call, secrets redacted where every line passes. */
describe('call logs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'v1gate-log-test-'));
  const file = join(dir, 'calls.log');
  let gateway: TestGateway;
  const lines = () =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));

  beforeAll(async () => {
    gateway = await startTestGateway({ LOG_FILE: file, LOG_LEVEL: 'info' });
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
    expect(line.v2).toEqual([{ method: 'GET', path: '/users/email', status: 200, ms: expect.any(Number) }]);
    expect(JSON.stringify(line)).not.toContain(gateway.credentials.api_key);
  });

  it('redacts a password a v1 call carries, and logs a v1 error at warn', async () => {
    await gateway.v1Raw('/user/updatepassword', { id: 'nobody-here', password: 'hunter2-secret' }, {});
    const line = lines().find((l) => l.endpoint === '/user/updatepassword');
    expect(line.params.password).toBe(REDACTED);
    expect(line.level).toBe(40);
    expect(readFileSync(file, 'utf8')).not.toContain('hunter2-secret');
    expect(readFileSync(file, 'utf8')).not.toContain(gateway.credentials.api_secret);
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
    const gateway = await startTestGateway({ LOG_FILE: file, LOG_LEVEL: 'info' });
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
});
