import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCalls } from '../../src/compare/calls.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { SecretsSeen } from '../support/secret-audit.js';

/**
 * What a gateway writes down (its log and its record file) holds no secret, however a client
 * sends one: under a mistyped name, in a body that is not a form, or handed back by v2 inside a
 * link. Both files are grepped for every secret the test sent or was answered.
 */

const FUTURE = '2031-03-04T10:00:00Z';
const dir = mkdtempSync(join(tmpdir(), 'v1gate-secrets-'));
const recordFile = join(dir, 'calls.jsonl');
const logFile = join(dir, 'gateway.log');
const seen = new SecretsSeen();
let gateway: TestGateway;

/** A POST with this exact body and content type (none: left out), as a careless client sends it. */
const send = (path: string, body: string, contentType?: string) =>
  fetch(`${gateway.url}/v1${path}`, { method: 'POST', headers: contentType ? { 'content-type': contentType } : {}, body }).then((r) =>
    r.text(),
  );

beforeAll(async () => {
  gateway = await startTestGateway({ V1_RECORD_FILE: recordFile, LOG_FILE: logFile, LOG_LEVEL: 'debug' });
  seen.add(gateway.credentials.api_secret);
});
afterAll(async () => {
  await gateway?.close();
});

describe('secrets a client sends', () => {
  const key = () => gateway.credentials.api_key;
  // Secrets v1gate cannot know by value: only how it reads what is sent keeps them out.
  const stray = ['stray-secret-0000aaaa', 'stray-secret-1111bbbb', 'stray-secret-2222cccc', 'stray-secret-3333dddd'];

  beforeAll(async () => {
    seen.add(...stray);
    // A JSON body without the form content type: read as a form, it is one field whose name holds the secret.
    await send('/user/checkemail', JSON.stringify({ api_key: key(), api_secret: stray[0], email: 'a@b.c', note: 'x=y' }));
    await send('/user/checkemail', `api_key=${key()}&api-secret=${stray[1]}&email=a%40b.c`, 'application/x-www-form-urlencoded');
    await send('/user/checkemail', `api_key=${key()}&api_secret =${stray[2]}&email=a%40b.c`, 'application/x-www-form-urlencoded');
    await send('/user/checkemail', `api_key=${key()}&api_secret%00=${stray[3]}&email=a%40b.c`, 'application/x-www-form-urlencoded');
    // The right secret, also echoed in another field: replaced there by value.
    const secret = gateway.credentials.api_secret;
    await send('/user/checkemail', `api_key=${key()}&api_secret=${secret}&email=${encodeURIComponent(`${secret}@b.c`)}`, 'text/plain');
  });

  it('writes none of them to the log or the record file', async () => {
    await gateway.close(); // the log flushed and closed
    seen.expectAbsentFrom([logFile, recordFile]);
    const recorded = readCalls(recordFile).filter((c) => c.path === '/user/checkemail');
    expect(recorded).toHaveLength(5);
    expect(recorded[0]!.params).toEqual({ 'redacted field 1': 'redacted' });
    expect(recorded.slice(1, 4).map((c) => Object.values(c.params).filter((v) => v === 'redacted'))).toEqual([
      ['redacted'],
      ['redacted'],
      ['redacted'],
    ]);
    expect(recorded[4]!.params).toEqual({ email: 'redacted@b.c' });
    gateway = await startTestGateway({ V1_RECORD_FILE: recordFile, LOG_FILE: logFile, LOG_LEVEL: 'debug' });
    seen.add(gateway.credentials.api_secret);
  });
});

describe('secrets v2 hands back', () => {
  it('replaces the tokens an answer carries wherever they appear: their own fields, a start_url, a join_url', async () => {
    const owner = await gateway.v1('/user/getbyemail', { email: 'owner@sandbox.v1gate.local' });
    seen.from(owner);
    expect(seen.values.has(owner.zak)).toBe(true);
    const meeting = await gateway.v1('/meeting/create', {
      host_id: owner.id,
      type: '2',
      topic: 'Secrets',
      start_time: FUTURE,
      duration: '30',
    });
    seen.from(meeting);
    const got = await gateway.v1('/meeting/get', { id: meeting.id, host_id: owner.id });
    seen.from(got);
    expect(got.start_url).toContain(`zak=${owner.zak}`);
    const xml = await gateway.v1Raw('/meeting/get', { id: meeting.id, host_id: owner.id, data_type: 'XML' });
    seen.from(xml.text);
    const registered = await gateway.v1('/meeting/register', {
      id: meeting.id,
      email: `secret-${Date.now()}@example.com`,
      first_name: 'A',
      last_name: 'B',
    });
    seen.from(registered);

    await gateway.close();
    seen.expectAbsentFrom([logFile, recordFile]);
    const calls = readCalls(recordFile);
    const recordedGet = calls.find((c) => c.path === '/meeting/get' && c.dataType === 'JSON')!;
    expect((recordedGet.answer as { start_url: string }).start_url).toMatch(/zak=redacted$/);
    // The retired ZPK and Zoom token are answered empty: nothing to redact.
    expect(calls.find((c) => c.path === '/user/getbyemail')!.answer).toMatchObject({ token: '', zak: 'redacted', zpk: '' });
    gateway = await startTestGateway();
  });

  it('keeps every line of both files readable', () => {
    for (const line of readFileSync(logFile, 'utf8').split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
    expect(readCalls(recordFile).length).toBeGreaterThan(5);
  });
});
