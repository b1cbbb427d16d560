import { Writable } from 'node:stream';
import fc from 'fast-check';
import pino, { type Logger } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { FAILURES, levelOf, type FailureKind } from '../../mappings/errors.js';
import { KnownSecrets, SecretValues } from '../shared/secrets.js';
import { V2 } from '../v2-contract/v2-routes.js';
import type { V1CallRecord } from '../v1-steps/observe.js';
import { callLineFields, callLogObserver, loggerSettings, REDACTED } from './logging.js';
import { hostilePieces } from '../../test/support/hostile-texts.js';

/**
 * The call line written in one pass (src/ops/line-json.ts, src/ops/logging-frame.ts) is the line
 * pino writes for the same call through the general path (its `formatters.log` redacting, then
 * bounding, then its stringify): for any call record, the two parse to the same object, field by
 * field and in the same order, the time aside.
 */

const CONFIGURED = 'configured-secret-0123';
const OWN = ['own-api-secret-value', 'Redacted', 'sec ret/+?&=1'];

/** Pieces hostile strings are made of: JSON's special characters, lone surrogates, secrets as they are, encoded, named in URLs and bodies. */
const piece = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(...hostilePieces({ redacted: REDACTED, configured: CONFIGURED, own: OWN })),
  },
  { weight: 1, arbitrary: fc.constantFrom('a'.repeat(300), 'é'.repeat(200), '"'.repeat(150), '\u0001'.repeat(60)) },
);
const text = fc.array(piece, { maxLength: 5 }).map((pieces) => pieces.join(''));
const name = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('email', 'id', 'data_type', 'api_secret', 'password', 'zak', 'topic', 'member_ids[]', '…') },
  { weight: 2, arbitrary: text },
  { weight: 1, arbitrary: fc.constantFrom('n'.repeat(300), '{"a":1}', `x_${OWN[0]}`, `${CONFIGURED}`) },
);
const params = fc.dictionary(name, fc.oneof(text, fc.array(text, { maxLength: 4 })), { maxKeys: 80 });
const ms = fc.oneof(fc.double(), fc.constantFrom(0, 1.25, 1e21, -0, 12345678901, Number.NaN, Number.POSITIVE_INFINITY));
const v2Call = fc.record({
  method: fc.constantFrom('GET' as const, 'POST' as const, 'PATCH' as const, 'DELETE' as const),
  path: fc.oneof(fc.constantFrom('/users/email', `/users/${OWN[0]}`, `/users/${encodeURIComponent(OWN[2]!)}/settings`), text),
  status: fc.oneof(fc.constantFrom(0, 200, 404), fc.integer()),
  ms,
});
const failure = fc.constantFrom(...(Object.keys(FAILURES) as FailureKind[]));

const record: fc.Arbitrary<V1CallRecord> = fc
  .record({
    requestId: fc.oneof(fc.uuid(), text),
    traceId: fc.oneof(fc.hexaString({ minLength: 32, maxLength: 32 }), text),
    spanId: fc.hexaString({ minLength: 16, maxLength: 16 }),
    method: fc.oneof(fc.constantFrom('POST', 'GET'), text),
    rawPath: text.map((path) => `/v1/${path}`),
    endpoint: fc.option(fc.constantFrom('/user/checkemail', '/meeting/list', '/user/get'), { nil: undefined }),
    apiKey: fc.option(text, { nil: undefined }),
    secrets: fc.option(fc.subarray(OWN, { minLength: 1 }), { nil: undefined }),
    params: fc.option(params, { nil: undefined }),
    failed: fc.option(fc.record({ code: fc.oneof(fc.constantFrom(300, 1001, 12345678), fc.integer()), failure }), { nil: undefined }),
    ms,
    v2Calls: fc.oneof(
      { weight: 4, arbitrary: fc.array(v2Call, { maxLength: 3 }) },
      { weight: 1, arbitrary: fc.array(v2Call, { maxLength: 80 }) },
    ),
  })
  .map(({ secrets, failed, v2Calls, ...fields }) => ({
    ...fields,
    v2Calls: v2Calls.map((call) => ({ ...call, route: V2.users.emailTaken, undo: false })),
    startedAt: new Date(0),
    secrets: secrets && new SecretValues(secrets),
    errorCode: failed?.code,
    failure: failed?.failure,
    pairProven: true,
    answer: {},
    dataType: 'JSON' as const,
  }));

/** A logger as the gateway makes one, writing each line's text to `lines`. */
function capturingLogger(lines: string[], options: { level?: string; worker?: number } = {}): Logger {
  const sink = new Writable({
    decodeStrings: false,
    write(chunk: string, _encoding, done) {
      lines.push(chunk);
      done();
    },
  });
  return pino(loggerSettings({ level: options.level ?? 'info', worker: options.worker, secrets: new KnownSecrets([CONFIGURED]) }), sink);
}

/** The line as parsed and written again: escapes and number spellings made one, the order of fields kept; the time left out. */
function normalised(line: string): string {
  const { time, ...fields } = JSON.parse(line) as Record<string, unknown>;
  expect(time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  return JSON.stringify(fields);
}

/** The line pino writes for `call` through the general path, and the line the observer writes. */
function bothLines(logger: Logger, lines: string[], call: V1CallRecord): { general: string; written: string; general_calls: number } {
  const level = call.errorCode === undefined ? 'info' : call.failure ? levelOf(call.failure) : 'warn';
  logger[level](callLineFields(call), call.errorCode === undefined ? 'v1 call' : 'v1 call failed');
  const spy = vi.spyOn(logger, level);
  callLogObserver(logger)(call);
  const generalCalls = spy.mock.calls.length;
  spy.mockRestore();
  expect(lines).toHaveLength(2);
  const [general, written] = lines.splice(0, 2) as [string, string];
  return { general, written, general_calls: generalCalls };
}

describe('the call line written in one pass', () => {
  it('parses to the object the general path writes, for any call record (hostile texts, secrets, bounds)', () => {
    const lines: string[] = [];
    const logger = capturingLogger(lines);
    let onePass = 0;
    fc.assert(
      fc.property(record, (call) => {
        const { general, written, general_calls } = bothLines(logger, lines, call);
        expect(normalised(written)).toBe(normalised(general));
        if (general_calls === 0) onePass++;
      }),
      { numRuns: 400 },
    );
    // Most records are written in one pass: the comparison is not of the general path with itself.
    expect(onePass).toBeGreaterThan(200);
  });

  it("cuts a long list of v2 calls where the general path cuts it, the list's bytes counted across its calls", () => {
    const lines: string[] = [];
    const logger = capturingLogger(lines);
    const cuts: string[] = [];
    // Paths of every length from 40 to 80: the field's bytes run out at a different point of a call each time.
    for (let length = 40; length <= 80; length++) {
      const v2Calls = Array.from({ length: 70 }, (_, i) => ({
        route: V2.users.emailTaken,
        method: 'GET' as const,
        path: `/users/${'u'.repeat(length)}${i}`,
        undo: false,
        status: 200,
        ms: i / 10,
      }));
      const { general, written, general_calls } = bothLines(logger, lines, { ...fixedCall(), v2Calls });
      expect(normalised(written)).toBe(normalised(general));
      const last = (JSON.parse(written) as { v2: unknown[] }).v2.at(-1);
      if (general_calls === 0) cuts.push(String(last));
    }
    // Some were written in one pass and cut there, at different calls: the comparison is not of the general path with itself.
    const cut = cuts.filter((last) => /^…\(\d+ more\)$/.test(last));
    expect(new Set(cut).size).toBeGreaterThan(1);
  });

  it('writes an ordinary call in one pass, byte for byte as pino would, bindings and worker included', () => {
    const lines: string[] = [];
    const logger = capturingLogger(lines, { worker: 3 }).child({ part: 'facade' });
    const call: V1CallRecord = {
      requestId: 'r-1',
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      startedAt: new Date(0),
      method: 'POST',
      rawPath: '/v1/user/checkemail',
      endpoint: '/user/checkemail',
      apiKey: 'a-key',
      secrets: new SecretValues([OWN[0]!]),
      params: { email: `${OWN[0]}@example.com`, api_secret: 'x', 'quote"d': 'tab\there' },
      errorCode: undefined,
      pairProven: true,
      answer: {},
      dataType: 'JSON',
      ms: 1.73,
      v2Calls: [{ route: V2.users.emailTaken, method: 'GET', path: '/users/email', undo: false, status: 200, ms: 1.2 }],
    };
    const { general, written, general_calls } = bothLines(logger, lines, call);
    expect(general_calls).toBe(0);
    expect(written.replace(/"time":"[^"]*"/, '')).toBe(general.replace(/"time":"[^"]*"/, ''));
    expect(JSON.parse(written)).toMatchObject({
      level: 30,
      worker: 3,
      part: 'facade',
      params: { email: `${REDACTED}@example.com`, api_secret: REDACTED },
    });
  });

  it("writes a bug's line through pino, its error serialised as pino serialises one", () => {
    const lines: string[] = [];
    const logger = capturingLogger(lines);
    const fault = new Error(`broke near ${OWN[0]}`);
    callLogObserver(logger)({ ...fixedCall(), errorCode: 300, failure: 'internal', fault });
    const line = JSON.parse(lines[0]!) as { level: number; err: { type: string; stack: string } };
    expect(line.level).toBe(50);
    expect(line.err.type).toBe('Error');
    expect(line.err.stack).toContain('broke near');
  });

  it('writes nothing below the logger level, and a logger not made by loggerSettings still gets its line', () => {
    const quiet: string[] = [];
    callLogObserver(capturingLogger(quiet, { level: 'warn' }))(fixedCall());
    expect(quiet).toEqual([]);
    const plain: string[] = [];
    const sink = new Writable({ decodeStrings: false, write: (chunk: string, _e, done) => (plain.push(chunk), done()) });
    callLogObserver(pino(sink))(fixedCall());
    expect(JSON.parse(plain[0]!)).toMatchObject({ msg: 'v1 call', reqId: 'r-fixed' });
  });
});

function fixedCall(): V1CallRecord {
  return {
    requestId: 'r-fixed',
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    spanId: '00f067aa0ba902b7',
    startedAt: new Date(0),
    method: 'POST',
    rawPath: '/v1/user/get',
    endpoint: '/user/get',
    apiKey: undefined,
    params: { id: 'u1' },
    errorCode: undefined,
    pairProven: true,
    answer: {},
    dataType: 'JSON',
    ms: 2,
    v2Calls: [],
  };
}
