import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { V1CallRecord } from '../v1-steps/observe.js';
import { boundLogLine, FAILED_CALL_LINES, LOG_LINE_LIMITS, sampleFailedCalls } from './log-volume.js';

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('boundLogLine', () => {
  it('returns a line with nothing to clip as it is', () => {
    const line = { reqId: 'r1', code: 101, params: { id: 'u1', emails: ['a@b.c'] }, v2: [] };
    expect(boundLogLine(line)).toBe(line);
  });

  it('clips a long text, saying how much is left out', () => {
    const line = boundLogLine({ path: `/v1/${'a'.repeat(10_000)}` });
    expect(line.path).toMatch(/^\/v1\/a+…\(9748 more characters\)$/);
    expect(line.path.length).toBeLessThan(LOG_LINE_LIMITS.textBytes + 30);
  });

  it('holds each top-level field to its budget, however many fields a form had', () => {
    const params = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`f${i}`, 'x'.repeat(500)]));
    const line = boundLogLine({ code: 101, params, v2: [{ path: '/users/me', status: 401 }] });
    expect(bytesOf(line.params)).toBeLessThan(LOG_LINE_LIMITS.fieldBytes + 1_024);
    expect(line.params['…']).toMatch(/^\d+ more fields$/);
    // The fields after a clipped one keep their own budgets.
    expect(line.v2).toEqual([{ path: '/users/me', status: 401 }]);
  });

  it('counts bytes as written: escapes and multi-byte characters cannot pass the bound', () => {
    for (const char of ['\u0000', 'é', '€', '"', '\ud83d\ude00', '\udc00']) {
      const line = boundLogLine({ params: { value: char.repeat(5_000) } });
      const written = Buffer.byteLength(JSON.stringify(line.params.value));
      expect(written, JSON.stringify(char)).toBeLessThan(LOG_LINE_LIMITS.textBytes + 40);
    }
    // Never half a surrogate pair.
    const emoji = boundLogLine({ v: '\ud83d\ude00'.repeat(200) }).v;
    expect(emoji.replace(/…\(\d+ more characters\)$/, '')).toMatch(/^(\ud83d\ude00)+$/);
  });

  it('bounds lists, field names and depth', () => {
    const deep = { a: { b: { c: { d: { e: { f: { g: { h: { i: 'deep' } } } } } } } } };
    const line = boundLogLine({ list: Array.from({ length: 500 }, () => 'v'), deep, names: { ['n'.repeat(1_000)]: 1 } });
    expect(line.list).toHaveLength(LOG_LINE_LIMITS.entries + 1);
    expect(line.list.at(-1)).toBe(`…(${500 - LOG_LINE_LIMITS.entries} more)`);
    expect(JSON.stringify(line.deep)).toContain('[an object of 1 fields]');
    expect(Object.keys(line.names)[0]!.length).toBeLessThan(LOG_LINE_LIMITS.textBytes + 30);
  });
});

function failed(code: number, endpoint: string | undefined, v2Status?: number): V1CallRecord {
  return {
    requestId: 'r',
    traceId: 't',
    spanId: 's',
    startedAt: new Date(),
    method: 'POST',
    rawPath: endpoint ? `/v1${endpoint}` : '/v1/nothing',
    endpoint,
    apiKey: 'key',
    params: {},
    errorCode: code,
    pairProven: v2Status !== undefined && v2Status !== 401,
    answer: {},
    dataType: 'JSON',
    ms: 1,
    v2Calls:
      v2Status === undefined ? [] : [{ method: 'GET', path: '/users/me', status: v2Status, ms: 1 } as V1CallRecord['v2Calls'][number]],
  };
}

function recordingLogger(): { logger: pino.Logger; lines: () => Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines: () => lines };
}

describe('sampleFailedCalls', () => {
  it('writes a kind’s burst, then holds its lines back and counts them in one summary', async () => {
    const written: V1CallRecord[] = [];
    const { logger, lines } = recordingLogger();
    const clock = { now: 0 };
    const observe = sampleFailedCalls(
      (record) => void written.push(record),
      logger,
      () => clock.now,
    );
    for (let i = 0; i < 1_000; i++) observe(failed(124, '/user/get'));
    expect(written).toHaveLength(FAILED_CALL_LINES.perKind.burst);
    // A second later the kind has its rate's worth again.
    clock.now = 1_000;
    for (let i = 0; i < 100; i++) observe(failed(124, '/user/get'));
    expect(written).toHaveLength(FAILED_CALL_LINES.perKind.burst + FAILED_CALL_LINES.perKind.ratePerSecond);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const summary = lines().find((line) => line.msg === 'v1 call lines held back');
    expect(summary).toMatchObject({ heldBack: 1_100 - written.length, kinds: [{ kind: '124 /user/get', count: 1_100 - written.length }] });
  });

  it('bounds all kinds together, whatever the mix', () => {
    const written: V1CallRecord[] = [];
    const observe = sampleFailedCalls(
      (record) => void written.push(record),
      recordingLogger().logger,
      () => 0,
    );
    for (let code = 0; code < 100; code++) for (let i = 0; i < 20; i++) observe(failed(code, undefined));
    expect(written).toHaveLength(FAILED_CALL_LINES.all.burst);
  });

  it('never holds back a proven pair’s call: a success, a failure v2 answered, a mapped key’s parameter error', () => {
    const written: V1CallRecord[] = [];
    const observe = sampleFailedCalls(
      (record) => void written.push(record),
      recordingLogger().logger,
      () => 0,
    );
    for (let i = 0; i < 500; i++) {
      observe({ ...failed(0, '/user/get', 200), errorCode: undefined });
      observe(failed(1001, '/user/get', 404));
      observe({ ...failed(300, '/user/get'), pairProven: true, failure: 'v1-error' });
    }
    expect(written).toHaveLength(1_500);
  });

  it('counts every line of an anonymous call, whatever its level: a bug it reached, an answer with no v2 call', () => {
    const written: V1CallRecord[] = [];
    const observe = sampleFailedCalls(
      (record) => void written.push(record),
      recordingLogger().logger,
      () => 0,
    );
    for (let i = 0; i < 500; i++) {
      observe({ ...failed(503, '/user/get'), failure: 'internal', fault: new TypeError('a bug') });
      observe({ ...failed(0, '/user/get'), errorCode: undefined });
    }
    expect(written).toHaveLength(2 * FAILED_CALL_LINES.perKind.burst);
  });
});
