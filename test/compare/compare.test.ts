import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationOf, readCalls, type RecordedCall } from '../../src/compare/calls.js';
import { compareCalls, type CompareOptions } from '../../src/compare/compare.js';
import { endpointFacts } from '../../src/compare/endpoint-facts.js';
import { realDifferences, type EndpointReport } from '../../src/compare/report.js';
import { callsFromHar } from '../../src/compare/har.js';
import { renderHtmlReport } from '../../src/compare/html-report.js';
import { liveTarget, recordedTarget } from '../../src/compare/replay.js';
import { ALL_ENDPOINTS } from '../../src/translators/endpoints.js';
import { startFakeV1 } from '../support/fake-v1.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { SecretsSeen } from '../support/secret-audit.js';

/**
 * Migration testing side by side: v1 calls recorded by one gateway, replayed against two v1
 * targets and compared field by field, noise apart from real differences.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'v1gate-compare-'));
const recordFile = join(dir, 'calls.jsonl');
/** The calls of the recording phase alone (A keeps recording what later tests send it). */
const snapshot = join(dir, 'snapshot.jsonl');

let a: TestGateway; // records; has the sandbox
let b: TestGateway; // a second v1gate over A's sandbox
let c: TestGateway; // a v1gate whose /user/get answers another `type`: a deliberate mapping bug
let d: TestGateway; // another v1gate with its own sandbox, same credentials: safe to write to
const owner = 'owner@sandbox.v1gate.local';

const base = (overrides: Partial<CompareOptions> = {}): CompareOptions => ({
  a: liveTarget(a.url, creds()),
  b: liveTarget(b.url, creds()),
  writes: false,
  ...endpointFacts(ALL_ENDPOINTS),
  ...overrides,
});
const creds = () => ({ apiKey: a.credentials.api_key, apiSecret: a.credentials.api_secret });

beforeAll(async () => {
  a = await startTestGateway({ V1_RECORD_FILE: recordFile });
  const sameAccount = { SANDBOX_API_KEY: a.credentials.api_key, SANDBOX_API_SECRET: a.credentials.api_secret };
  b = await startTestGatewayOver(a, ALL_ENDPOINTS);
  const broken = ALL_ENDPOINTS.map((endpoint) =>
    endpoint.path === '/user/get'
      ? {
          ...endpoint,
          handle: async (params: unknown, ctx: Parameters<typeof endpoint.handle>[1]) => ({
            ...(await endpoint.handle(params, ctx)),
            type: 99,
          }),
        }
      : endpoint,
  );
  c = await startTestGatewayOver(a, broken);
  d = await startTestGateway(sameAccount);
});

afterAll(async () => {
  await Promise.all([a, b, c, d].map((g) => g?.close()));
});

/** A gateway with its own endpoints over A's sandbox. */
async function startTestGatewayOver(over: TestGateway, endpoints: typeof ALL_ENDPOINTS): Promise<TestGateway> {
  const { loadConfig } = await import('../../src/config.js');
  const { startGateway } = await import('../../src/gateway.js');
  const gateway = await startGateway(
    loadConfig({ PORT: '0', V2_BASE_URL: over.v2BaseUrl, V1_RATE_LIMITS: 'off', V2_RATE_LIMITS: 'off', LOG_LEVEL: 'silent' }),
    { endpoints },
  );
  return { ...over, ...gateway, sandbox: over.sandbox, credentials: over.credentials };
}

describe('recording (V1_RECORD_FILE)', () => {
  let calls: RecordedCall[];

  beforeAll(async () => {
    const me = await a.v1('/user/getbyemail', { email: owner });
    await a.v1('/user/checkemail', { email: owner });
    await a.v1('/user/get', { id: me.id });
    await a.v1('/user/get', { id: me.id, data_type: 'XML' });
    await a.v1('/user/get', {}); // an error is recorded too
    await a.v1('/group/create', { name: `compare-${Date.now()}` });
    await a.v1('/user/list', {});
    calls = readCalls(recordFile);
    writeFileSync(snapshot, readFileSync(recordFile));
  });

  it('writes one JSON line per v1 call, with params, answer, v2 calls and latency', () => {
    expect(calls.map((c) => c.path)).toEqual([
      '/user/getbyemail',
      '/user/checkemail',
      '/user/get',
      '/user/get',
      '/user/get',
      '/group/create',
      '/user/list',
    ]);
    const check = calls[1]!;
    expect(check.params).toEqual({ email: owner });
    expect(check.answer).toEqual({ existed_email: true });
    expect(check.v2Calls).toEqual([expect.objectContaining({ method: 'GET', status: 200 })]);
    expect(check.ms).toBeGreaterThan(0);
    expect(calls[3]!.dataType).toBe('XML');
    expect(calls[4]!.answer).toEqual({ error: { code: 300, message: 'id is required.' } });
  });

  it('never writes the credentials, nor the tokens an answer carries', async () => {
    const text = readFileSync(recordFile, 'utf8');
    expect(text).not.toContain(a.credentials.api_secret);
    expect(text).not.toContain(a.credentials.api_key);
    expect(text).not.toContain('api_secret');
    const served = await a.v1('/user/get', { id: calls[2]!.params.id as string });
    expect(served.zak).toMatch(/^.{20,}$/);
    // v1's token is empty today (v2 issues none): nothing to redact; the ZAK is.
    expect(served.token).toBe('');
    expect(calls[2]!.answer).toMatchObject({ token: '', zak: 'redacted' });
    expect(text).not.toContain(served.zak);
  });
});

describe('record rotation (V1_RECORD_MAX_BYTES)', () => {
  it('rotates the file to <file>.1 before it would pass the size, keeping whole lines and no credentials', async () => {
    const file = join(dir, 'rotating.jsonl');
    const small = await startTestGateway({ V1_RECORD_FILE: file, V1_RECORD_MAX_BYTES: '1024' });
    try {
      const emails = Array.from({ length: 12 }, (_, i) => `rotation-${i}@example.com`);
      for (const email of emails) await small.v1('/user/checkemail', { email });
      for (const name of [file, `${file}.1`]) expect(statSync(name).size).toBeLessThanOrEqual(1024);
      // One generation kept: the newest calls, in order, across the two files; none cut in half.
      const kept = [...readCalls(`${file}.1`), ...readCalls(file)].map((c) => c.params.email);
      expect(kept.length).toBeGreaterThan(2);
      expect(kept).toEqual(emails.slice(-kept.length));
      for (const name of [file, `${file}.1`]) expect(readFileSync(name, 'utf8')).not.toContain(small.credentials.api_secret);
    } finally {
      await small.close();
    }
  });
});

/** All the field reports of an endpoint, real and noise. */
const fieldsOf = (endpoint: EndpointReport | undefined) => [...(endpoint?.real ?? []), ...(endpoint?.noise ?? [])];

describe('replay and diff', () => {
  it('finds no real difference between two v1gate instances over one sandbox, and accounts for the write it did not replay', async () => {
    const report = await compareCalls(readCalls(snapshot), base());
    expect(report.summary).toMatchObject({ recorded: 7, compared: 6, differing_calls: 0, real_differences: 0 });
    expect(report.summary.not_compared).toEqual({ writes: 1, limited: 0, failed: 0, dropped: 0, 'too-large': 0 }); // /group/create
    expect(report.summary.line).toBe(
      '7 recorded calls: 6 compared (0 with real differences), 1 write not replayed. Endpoints: 4 ready, 0 differ, 1 not exercised.',
    );
    expect(report.endpoints.find((e) => e.path === '/group/create')).toMatchObject({
      verdict: 'not exercised',
      not_compared: { writes: 1 },
    });
    // What each call cost in v2 calls, as both v1gates said, beside the declared count.
    expect(report.endpoints.find((e) => e.path === '/user/checkemail')!.v2_calls_per_call).toEqual({ a: 1, b: 1, declared: 1 });
  });

  it('names the exact field of a twin that flips it, with its mapping row, and nothing else as real', async () => {
    const report = await compareCalls(readCalls(snapshot), base({ b: liveTarget(c.url, creds()) }));
    const userGet = report.endpoints.find((e) => e.path === '/user/get')!;
    expect(userGet).toMatchObject({ verdict: 'differs', calls: 3, differing: 2 }); // JSON and XML; the error answer is the same
    expect(userGet.real.map((f) => [f.field, f.kind])).toEqual([['type', 'value']]);
    expect(userGet.real[0]).toMatchObject({
      count: 2,
      source: { kind: 'mapping', file: 'mappings/user-fields.ts', table: 'USER_FIELDS' },
      why: expect.stringMatching(/^mappings\/user-fields\.ts USER_FIELDS: type ↔ type /),
    });
    // JSON keeps its number; XML compares text.
    expect(userGet.real[0]!.examples.map((x) => [x.a, x.b])).toEqual([
      [expect.any(Number), 99],
      [expect.stringMatching(/^\d+$/), '99'],
    ]);
    expect(report.endpoints.filter((e) => e.verdict === 'differs').map((e) => e.path)).toEqual(['/user/get']);
    expect(report.endpoints[0]!.path).toBe('/user/get'); // what differs comes first
  });

  it('compares recorded answers with a live target (--a recorded), XML ones as XML: no real difference', async () => {
    const report = await compareCalls(readCalls(snapshot), base({ a: recordedTarget(), b: liveTarget(a.url, creds()) }));
    expect(report.summary).toMatchObject({ compared: 6, real_differences: 0 });
    expect(report.endpoints.find((e) => e.path === '/user/get')!.v2_calls_per_call).toMatchObject({
      a: expect.any(Number),
      b: expect.any(Number),
    });
  });

  it('refuses to compare a recorded JSON answer with a live XML one, with a clear message', async () => {
    const jsonGet = readCalls(snapshot).find((c) => c.path === '/user/get' && c.dataType === 'JSON' && c.params.id !== undefined)!;
    // A capture whose answer was JSON text, replayed as the XML call it says it was.
    const captured = { ...jsonGet, dataType: 'XML' as const, answer: JSON.stringify(jsonGet.answer) };
    const report = await compareCalls([captured], base({ a: recordedTarget(), b: liveTarget(a.url, creds()) }));
    const [difference] = report.endpoints.find((e) => e.path === '/user/get')!.real;
    expect(difference).toMatchObject({ field: '(answer)', kind: 'format', count: 1 });
    expect(difference!.why).toBe(
      'the whole answer: A answered JSON, B answered XML; answers in two formats are not compared field by field',
    );
  });

  it("replays a write sequence on two sandboxes, carrying each side's new ids into later calls", async () => {
    const name = `sequence-${Date.now()}`;
    const sequence: RecordedCall[] = [];
    const record = async (path: string, params: Record<string, string>) => {
      const answer = await a.v1(path, params);
      sequence.push({ time: '', path, params, dataType: 'JSON', answer, v2Calls: [], ms: 0 });
      return answer;
    };
    const created = await record('/group/create', { name });
    await record('/group/get', { id: created.group_id });
    await record('/group/edit', { id: created.group_id, name: `${name}-2` });
    await record('/group/delete', { id: created.group_id });

    const report = await compareCalls(sequence, base({ a: liveTarget(a.url, creds()), b: liveTarget(d.url, creds()), writes: true }));
    expect(report.summary).toMatchObject({ recorded: 4, compared: 4, real_differences: 0 });
    const noise = report.endpoints.flatMap((e) => e.noise);
    expect(noise.map((f) => f.field)).toContain('group_id');
    // Both sides really deleted their own group: the ids were carried, not the recorded one.
    expect((await d.v2('GET', '/groups')).body.groups.map((g: { name: string }) => g.name)).not.toContain(`${name}-2`);
  });

  it('classifies what differs between two runs of A as noise (--noise)', async () => {
    const report = await compareCalls(readCalls(snapshot), base({ b: liveTarget(c.url, creds()), noise: liveTarget(c.url, creds()) }));
    // With the noise target a copy of the broken one, A vs A' differs on `type` too: noise, not hidden.
    const type = fieldsOf(report.endpoints.find((e) => e.path === '/user/get')).find((f) => f.field === 'type')!;
    expect(type.noise).toBe('differs between two runs of A');
    expect(report.noise).toBe(c.url);
  });
});

describe("the report on real-looking differences (a fake v1 from the reference's example answers)", () => {
  let fake: Awaited<ReturnType<typeof startFakeV1>>;
  beforeAll(async () => {
    fake = await startFakeV1();
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('names the real differences with their sources, keeps minted ids and times apart as noise, and renders them in that order', async () => {
    // One /user/get (JSON, with an id): the fake answers its one example whatever is asked.
    const calls = readCalls(snapshot).filter((c) => c.path !== '/user/get' || (c.dataType === 'JSON' && c.params.id !== undefined));
    const report = await compareCalls(calls, base({ a: liveTarget(fake.url, creds()) }));
    const userGet = report.endpoints.find((e) => e.path === '/user/get')!;
    const field = (name: string) => fieldsOf(userGet).find((f) => f.field === name)!;
    // A real difference, with the row that produces the field; an inverted flag names its codec.
    expect(field('email')).toMatchObject({
      kind: 'value',
      why: 'mappings/user-fields.ts USER_FIELDS: email ↔ email (same)',
      examples: [{ a: 'email_address', b: owner }],
    });
    expect(field('email').noise).toBeUndefined();
    expect(field('disable_chat')).toMatchObject({ why: 'mappings/user-options.ts USER_OPTIONS: disable_chat ↔ in_meeting.chat (negated)' });
    // What each service mints is noise, reported with its rule, and the report says the service minted it.
    expect(field('id').noise).toBe('minted identifier');
    expect(field('pic_url').noise).toBe('link embedding an identifier');
    expect(field('zpk')).toMatchObject({ why: 'minted by the service' });
    // A time years apart is not within the tolerance: real.
    expect(field('created_at').noise).toBeUndefined();
    expect(report.endpoints.find((e) => e.path === '/user/checkemail')).toMatchObject({ verdict: 'ready', calls: 1, differing: 0 });
    const html = renderHtmlReport(report);
    const order = ['id="summary"', 'id="differences"', 'id="noise"', 'id="ready"'].map((marker) => html.indexOf(marker));
    expect(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!))).toBe(true);
    expect(html).toContain('<h3><code>/v1/user/get</code> — 1 of 1 compared calls differ</h3>');
    expect(html).toContain('<div class="why">mappings/user-options.ts USER_OPTIONS: disable_chat ↔ in_meeting.chat (negated)</div>');
    expect(html).toMatch(
      /<details data-endpoint="\/user\/get"><summary><code>\/v1\/user\/get<\/code>: \d+ expected differences in \d+ fields<\/summary>/,
    );
  });
});

describe('HAR import', () => {
  it('turns v1 POSTs of a capture into recorded calls, without credentials, passwords or tokens', () => {
    const har = {
      log: {
        entries: [
          {
            startedDateTime: '2018-05-01T10:00:00.000Z',
            time: 120,
            request: {
              method: 'POST',
              url: 'https://api.example.com/v1/user/checkemail',
              postData: { mimeType: 'application/x-www-form-urlencoded', text: 'api_key=K&api_secret=S&email=a%40b.c&password=hunter22' },
            },
            response: { content: { mimeType: 'application/json', text: '{"existed_email":false,"zak":"eyJ.secret"}' } },
          },
          { request: { method: 'GET', url: 'https://example.com/index.html' }, response: { content: {} } },
          {
            request: {
              method: 'POST',
              url: 'https://api.example.com/v1/Meeting/List/?data_type=XML',
              postData: {
                params: [
                  { name: 'api_key', value: 'K' },
                  { name: 'host_id', value: 'u1' },
                ],
              },
            },
            response: { content: { text: '<response/>' } },
          },
        ],
      },
    };
    expect(callsFromHar(har)).toEqual([
      {
        time: '2018-05-01T10:00:00.000Z',
        path: '/user/checkemail',
        params: { email: 'a@b.c', password: 'redacted' },
        dataType: 'JSON',
        answer: { existed_email: false, zak: 'redacted' },
        v2Calls: [],
        ms: 120,
        // The integration by a hash of its api_key, never the key: what a recipe groups calls by.
        integration: integrationOf('K'),
      },
      {
        time: '',
        path: '/meeting/list',
        params: { host_id: 'u1' },
        dataType: 'XML',
        answer: '<response/>',
        v2Calls: [],
        ms: 0,
        integration: integrationOf('K'),
      },
    ]);
    expect(() => callsFromHar({})).toThrow(/HAR/);
  });
});

describe('npm run compare', () => {
  const run = promisify(execFile);
  const cli = (args: string[]) =>
    run(join(ROOT, 'node_modules/.bin/tsx'), ['scripts/compare.ts', ...args], { cwd: ROOT }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );

  it('writes the JSON and HTML reports, accounts for every call, exits 1 past --max-diff, and writes no secret it saw', async () => {
    const json = join(dir, 'report.json');
    const html = join(dir, 'report.html');
    const secret = a.credentials.api_secret;
    const args = ['--a', a.url, '--b', c.url, '--calls', snapshot, '--key', a.credentials.api_key, '--json', json, '--report', html];
    const failing = await cli([...args, '--secret', secret]);
    expect(failing.code, failing.stderr).toBe(1);
    expect(failing.stdout).toContain('7 recorded calls: 6 compared (2 with real differences), 1 write not replayed.');
    expect(failing.stdout).toMatch(/\/v1\/user\/get: 2\/3 differ: type \(value\)/);
    // Not a terminal: plain progress lines on standard error, the last with every call.
    expect(failing.stderr).toMatch(/^7\/7 calls, 6 compared, 2 with real differences$/m);
    const report = JSON.parse(readFileSync(json, 'utf8'));
    expect(Object.keys(report)).toEqual(['a', 'b', 'generated_at', 'summary', 'endpoints']);
    expect(report.summary).toMatchObject({ recorded: 7, compared: 6, differing_calls: 2, real_differences: 2 });
    expect(readFileSync(html, 'utf8')).toMatch(/^<!doctype html>/);
    // Every secret either side handed out: the api_secret, and the tokens both users' answers carry.
    const seen = new SecretsSeen().add(secret);
    for (const target of [a, c]) seen.from(await target.v1('/user/getbyemail', { email: owner }));
    seen.expectAbsentFrom([json, html, recordFile], { stdout: failing.stdout, stderr: failing.stderr });
    // `--secret=S` reads the same; past --max-diff 2 nothing fails.
    expect((await cli([...args, `--secret=${secret}`, '--max-diff', '2'])).code).toBe(0);
  });

  it('explains a usage error with the usage and no stack trace, and --help prints it', async () => {
    const missing = await cli(['--a', a.url]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--a, --b and --calls are required');
    expect(missing.stderr).toContain('usage:');
    expect(missing.stderr).not.toMatch(/^\s+at /m);
    const unknown = await cli(['--secrt', 'x']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown option '--secrt'/);
    expect(unknown.stderr).not.toMatch(/^\s+at /m);
    const help = await cli(['--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toContain('--concurrency N');
  });

  it('imports the HAR capture of a real session, which then replays with no real difference', async () => {
    // A capture as a browser or proxy saves one: the exact bytes a client sent and got back.
    const me = await a.v1('/user/getbyemail', { email: owner });
    const entries = [];
    for (const [path, fields] of [
      ['/v1/user/checkemail', { email: owner }],
      ['/v1/user/get', { id: me.id }],
      ['/v1/user/get', { id: me.id, data_type: 'XML' }],
    ] as const) {
      const text = new URLSearchParams({ ...a.credentials, ...fields }).toString();
      const response = await fetch(`${a.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: text,
      });
      entries.push({
        startedDateTime: new Date().toISOString(),
        time: 5,
        request: { method: 'POST', url: `${a.url}${path}`, postData: { mimeType: 'application/x-www-form-urlencoded', text } },
        response: { content: { mimeType: response.headers.get('content-type'), text: await response.text() } },
      });
    }
    const harFile = join(dir, 'capture.har');
    writeFileSync(harFile, JSON.stringify({ log: { version: '1.2', entries } }));
    const out = join(dir, 'imported.jsonl');
    const result = await cli(['import-har', harFile, '--out', out]);
    expect(result.stdout).toContain('3 v1 calls written');
    const imported = readFileSync(out, 'utf8');
    expect(imported).not.toContain(a.credentials.api_secret);
    expect(imported).not.toContain(a.credentials.api_key);
    const calls = readCalls(out);
    expect(calls.map((c) => [c.path, c.dataType])).toEqual([
      ['/user/checkemail', 'JSON'],
      ['/user/get', 'JSON'],
      ['/user/get', 'XML'],
    ]);
    // The captured answers, JSON and XML, against the live gateway now.
    const report = await compareCalls(calls, base({ a: recordedTarget(), b: liveTarget(a.url, creds()) }));
    expect(report.summary.compared).toBe(3);
    expect(realDifferences(report)).toBe(0);
  });
});
