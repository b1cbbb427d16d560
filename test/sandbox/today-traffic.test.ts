import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrafficRecord } from '../../src/sandbox/traffic-log.js';
import { TODAY_DIFFERENCES } from '../support/today-differences.js';
import { checkTraffic, exchangeProblems, explainingRow, readTraffic } from '../support/today-traffic.js';
import { signV2Token, startSandbox, type RunningSandbox } from '../support/sandbox.js';
import { readJsonLines } from '../support/json-lines.js';

/**
 * The check the global teardown runs over the whole suite's v2 traffic (today-traffic.ts), shown
 * to fail: on a recorded sample with one exchange per row of TODAY_DIFFERENCES (taken from a run
 * of the suite), each row explains what it names and removing any one row makes the check fail;
 * and on fresh traffic, a request v1gate sends with a property today's documents do not take.
 */

const SAMPLE = fileURLToPath(new URL('./fixtures/today-traffic-sample.jsonl', import.meta.url));
const sample = readJsonLines<TrafficRecord>(SAMPLE);

describe('the recorded sample', () => {
  it('holds no difference the table does not explain', () => {
    expect(checkTraffic(sample).unexplained).toEqual([]);
  });

  it('has, for every row, an exchange that row alone explains, so that removing the row fails the check', () => {
    for (const [index, row] of TODAY_DIFFERENCES.entries()) {
      const without = TODAY_DIFFERENCES.filter((_, i) => i !== index);
      const verdict = checkTraffic(sample, without);
      expect(verdict.unexplained.length, `row ${index} (${row.side} ${String(row.operation)} ${String(row.place)})`).toBeGreaterThan(0);
    }
  });

  it('is a run of the suite: every row explained something there', () => {
    const used = new Set(sample.flatMap((r) => exchangeProblems(r).map((p) => explainingRow(p, TODAY_DIFFERENCES))));
    expect([...TODAY_DIFFERENCES.keys()].filter((i) => !used.has(i))).toEqual([]);
  });
});

describe('fresh traffic', () => {
  let sb: RunningSandbox;
  let folder: string;
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'v1gate-traffic-test-'));
    sb = await startSandbox({ trafficLog: folder });
  });
  afterAll(async () => {
    await sb.close();
    rmSync(folder, { recursive: true, force: true });
  });

  async function post(path: string, body: unknown, userAgent: string): Promise<number> {
    const token = await signV2Token(sb.sandbox.credentials.apiKey, sb.sandbox.credentials.apiSecret, 60, sb.sandbox.state);
    const response = await fetch(`${sb.url}/v2${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'user-agent': userAgent },
      body: JSON.stringify(body),
    });
    await response.text();
    return response.status;
  }

  it("records every exchange, and fails a request v1gate sent with a property today's meeting create does not take", async () => {
    const retired = { topic: 'Old login rule', settings: { enforce_login: true } };
    expect(await post('/users/me/meetings', retired, 'v1gate/0.0.0')).toBe(201);
    // The same body from another client is not v1gate's request: only its answer is checked.
    expect(await post('/users/me/meetings', retired, 'some-client/1')).toBe(201);
    const records = readTraffic(folder);
    expect(records.map((r) => [r.method, r.path, r.status, r.fromGateway])).toEqual([
      ['POST', '/users/me/meetings', 201, true],
      ['POST', '/users/me/meetings', 201, false],
    ]);
    expect(checkTraffic(records).unexplained).toEqual([
      {
        side: 'request',
        operation: 'POST /users/{userId}/meetings',
        place: 'body /settings/enforce_login',
        message: 'not a property the operation takes',
        seen: 1,
      },
    ]);
  });

  it('keeps a request refused at the token check, its path and query checked, its body marked unread', async () => {
    const before = readTraffic(folder).length;
    const response = await fetch(`${sb.url}/v2/users/me/meetings?page_size=300&colour=red`, {
      method: 'POST',
      headers: { authorization: 'Bearer not-a-token', 'content-type': 'application/json', 'user-agent': 'v1gate/0.0.0' },
      body: JSON.stringify({ topic: 'Refused' }),
    });
    await response.text();
    expect(response.status).toBe(401);
    const [refused, ...more] = readTraffic(folder).slice(before);
    expect(more).toEqual([]);
    expect(refused).toMatchObject({ method: 'POST', path: '/users/me/meetings', status: 401, fromGateway: true, bodyUnread: true });
    expect(refused!.requestBody).toBeUndefined();
    // The query is v1gate's all the same: a parameter the operation does not take is found; the body, not read, is not judged.
    expect(exchangeProblems(refused!).map((p) => p.place)).toEqual(['query page_size', 'query colour']);
  });

  it('fails an answer off its schema, and one of a status the operation does not list', () => {
    const answer = (status: number, body: unknown): TrafficRecord => ({
      method: 'GET',
      path: '/users/abc',
      query: '',
      fromGateway: false,
      status,
      answer: JSON.stringify(body),
    });
    expect(checkTraffic([answer(200, { id: 'abc', type: 3, pmi: 1234567890 })]).unexplained.map((p) => p.place)).toEqual([
      'status 200 /type',
    ]);
    expect(checkTraffic([answer(202, {})]).unexplained.map((p) => p.message)).toEqual([
      'not an answer the operation lists (200, 400, 404, 429)',
    ]);
  });
});
