import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFaultUpstream, type FaultUpstream, type SeenRequest } from '../support/fault-upstream.js';
import { CLIENT, SERVER, startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';
import { callWithTrace, lineOf, parentIdOf, traceIdOf, type TracedAnswer } from './support.js';

/**
 * Spans as a collector receives them: a gateway process with OTEL_EXPORTER_OTLP_ENDPOINT pointing
 * at an OTLP/HTTP receiver the test runs, its v2 a fault proxy in front of a real sandbox (so the
 * test sees the `traceparent` each v2 request carried). A v1 call's span continues the client's
 * trace, each v2 attempt's span is the parent v2 was told of, and no span holds a secret.
 */
let sandbox: RunningSandbox;
let faults: FaultUpstream;
let receiver: OtlpReceiver;
let gateway: GatewayProcess | undefined;
let creds: { api_key: string; api_secret: string };

const CLIENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';

beforeAll(async () => {
  sandbox = await startSandbox();
  faults = await startFaultUpstream(`${sandbox.url}/v2`);
  receiver = await startOtlpReceiver();
  creds = { api_key: sandbox.sandbox.credentials.apiKey, api_secret: sandbox.sandbox.credentials.apiSecret };
});
afterEach(async () => {
  await gateway?.kill();
  gateway = undefined;
  faults.rules.length = 0;
  faults.seen.length = 0;
});
afterAll(async () => {
  await receiver.close();
  await faults.close();
  await sandbox.close();
});

/** A gateway process exporting to the receiver, batches sent every 100 ms unless `env` says otherwise. */
async function startExporting(env: Record<string, string> = {}, startTimeoutMs?: number): Promise<GatewayProcess> {
  gateway = await startGatewayProcess(
    {
      V2_BASE_URL: faults.url,
      V1_RATE_LIMITS: 'off',
      V2_RATE_LIMITS: 'off',
      LOG_LEVEL: 'info',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      ...env,
    },
    startTimeoutMs === undefined ? {} : { startTimeoutMs },
  );
  return gateway;
}

const ofTrace = (traceId: string) => (span: ReceivedSpan) => span.traceId === traceId;
const seenIn = (traceId: string): SeenRequest[] => faults.seen.filter((r) => traceIdOf(r.headers.traceparent) === traceId);

/** The v1 span of a call and its v2 spans, once all have arrived (the v1 span ends last, after its v2 calls). */
async function spansOf(answer: TracedAnswer): Promise<{ v1: ReceivedSpan; v2: ReceivedSpan[] }> {
  const traceId = traceIdOf(answer.traceresponse)!;
  const spanId = parentIdOf(answer.traceresponse)!;
  await receiver.waitFor((s) => s.spanId === spanId);
  await receiver.waitFor((s) => s.traceId === traceId && s.parentSpanId === spanId, answer.v2Calls);
  const spans = receiver.spans.filter(ofTrace(traceId));
  return { v1: spans.find((s) => s.spanId === spanId)!, v2: spans.filter((s) => s.parentSpanId === spanId) };
}

describe('spans exported over OTLP/HTTP', () => {
  it("continue the client's trace: a v1 span under its span, a v2 span per v2 call, each the parent v2 received", async () => {
    const child = await startExporting();
    const owner = sandbox.sandbox.master.ownerId;
    const answer = await callWithTrace(
      child.url,
      '/user/get',
      { ...creds, id: owner },
      {
        traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`,
        tracestate: 'rojo=00f067aa0ba902b7,congo=t61rcWkgMzE',
      },
    );
    expect(answer.body).toMatchObject({ id: owner });
    expect(traceIdOf(answer.traceresponse)).toBe(CLIENT_TRACE);
    expect(answer.v2Calls).toBeGreaterThanOrEqual(1);

    const { v1, v2 } = await spansOf(answer);
    expect(v1).toMatchObject({
      traceId: CLIENT_TRACE,
      parentSpanId: CLIENT_SPAN,
      traceState: 'rojo=00f067aa0ba902b7,congo=t61rcWkgMzE',
      name: 'POST /v1/user/get',
      kind: SERVER,
      attributes: {
        'http.request.method': 'POST',
        'http.route': '/v1/user/get',
        'v1gate.v1.data_type': 'JSON',
        'v1gate.v2.calls': answer.v2Calls,
      },
    });
    expect(v1.attributes['v1gate.v1.error_code']).toBeUndefined();
    expect(v1.resource).toMatchObject({ 'service.name': 'v1gate', 'process.pid': child.pid, 'service.instance.id': expect.any(String) });

    // Every v2 request carried a traceparent of the same trace, whose parent is one v2 span, and the tracestate.
    const sent = seenIn(CLIENT_TRACE);
    expect(sent).toHaveLength(answer.v2Calls);
    expect(v2).toHaveLength(answer.v2Calls);
    expect(sent.map((r) => parentIdOf(r.headers.traceparent)).sort()).toEqual(v2.map((s) => s.spanId).sort());
    for (const request of sent) expect(request.headers.tracestate).toBe('rojo=00f067aa0ba902b7,congo=t61rcWkgMzE');
    for (const span of v2) {
      const request = sent.find((r) => parentIdOf(r.headers.traceparent) === span.spanId)!;
      expect(span).toMatchObject({
        kind: CLIENT,
        name: `${request.method} ${span.attributes['url.template']}`,
        attributes: { 'http.request.method': request.method, 'http.response.status_code': 200, 'v1gate.v2.attempt': 1 },
        status: { code: 0 },
      });
      expect(String(span.attributes['url.template'])).toMatch(/^\/users\/\{userId\}/);
    }

    // The call's log line carries the same trace and span.
    const line = await lineOf(child, answer.requestId);
    expect(line).toMatchObject({ trace_id: CLIENT_TRACE, span_id: v1.spanId });
  });

  it('give each attempt of a retried v2 call its own span and header, and name a v1 error code', async () => {
    const child = await startExporting();
    faults.rules.push({ method: 'GET', path: /^\/users\/[^/]+$/, fault: { kind: 'answer', status: 503, body: '{}' }, times: 1 });
    const retried = await callWithTrace(child.url, '/user/get', { ...creds, id: sandbox.sandbox.master.ownerId }, {});
    const { v2 } = await spansOf(retried);
    const userGets = v2.filter((s) => s.attributes['url.template'] === '/users/{userId}');
    expect(userGets.map((s) => [s.attributes['v1gate.v2.attempt'], s.attributes['http.response.status_code']]).sort()).toEqual([
      [1, 503],
      [2, 200],
    ]);
    expect(userGets.find((s) => s.attributes['v1gate.v2.attempt'] === 1)!.status).toMatchObject({ code: 2, message: 'HTTP 503' });
    const sent = seenIn(traceIdOf(retried.traceresponse)!);
    expect(new Set(sent.map((r) => parentIdOf(r.headers.traceparent))).size).toBe(sent.length);

    const missing = await callWithTrace(child.url, '/user/get', { ...creds, id: 'no-such-user' }, {});
    expect(missing.body).toMatchObject({ error: { code: 1001 } });
    const { v1 } = await spansOf(missing);
    expect(v1.attributes).toMatchObject({ 'v1gate.v1.error_code': 1001, 'http.route': '/v1/user/get' });

    const unknown = await callWithTrace(child.url, '/nothing/here', { ...creds }, {});
    const { v1: unmatched } = await spansOf(unknown);
    expect(unmatched.name).toBe('POST');
    expect(unmatched.attributes['http.route']).toBeUndefined();
  });

  it('hold no credential, token or param value, in any span or resource', async () => {
    const child = await startExporting({ OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=collector-secret-123' });
    const email = `traced-${Date.now()}@example.com`;
    const calls = [
      await callWithTrace(
        child.url,
        '/user/getbyemail',
        { ...creds, email, login_type: '100' },
        { traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01` },
      ),
      await callWithTrace(child.url, '/user/get', { ...creds, id: sandbox.sandbox.master.ownerId }, {}),
      await callWithTrace(child.url, '/user/get', { api_key: creds.api_key, api_secret: 'a-wrong-secret-value', id: 'x' }, {}),
    ];
    for (const call of calls) await spansOf(call);
    const sentTokens = faults.seen.map((r) => String(r.headers.authorization).replace(/^Bearer /, ''));
    const exported = receiver.bodies.join('\n');
    for (const secret of [
      creds.api_key,
      creds.api_secret,
      'a-wrong-secret-value',
      email,
      sandbox.sandbox.master.ownerId,
      'collector-secret-123',
      ...sentTokens,
    ]) {
      expect(exported).not.toContain(secret);
    }
    expect(exported).not.toMatch(/eyJ[\w-]+\.[\w-]+\./); // no JWT of any kind
  });

  it('ignore a malformed traceparent (a new trace, no parent, nothing of it echoed) and pass no tracestate on with it', async () => {
    const child = await startExporting();
    const malformed = [
      `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01-extra`,
      `00-${CLIENT_TRACE.toUpperCase()}-${CLIENT_SPAN}-01`,
      `00-${'0'.repeat(32)}-${CLIENT_SPAN}-01`,
      `ff-${CLIENT_TRACE}-${CLIENT_SPAN}-01`,
      `00-${CLIENT_TRACE}-<script>-01`,
      `cc-${CLIENT_TRACE}-${CLIENT_SPAN}-01-${'x'.repeat(6_000)}`,
    ];
    for (const traceparent of malformed) {
      const answer = await callWithTrace(
        child.url,
        '/user/get',
        { ...creds, id: sandbox.sandbox.master.ownerId },
        { traceparent, tracestate: 'rojo=1' },
      );
      const traceId = traceIdOf(answer.traceresponse)!;
      expect(answer.traceresponse, traceparent).toMatch(/^00-[\da-f]{32}-[\da-f]{16}-01$/);
      expect(traceId).not.toBe(CLIENT_TRACE);
      expect(answer.traceresponse).not.toContain('script');
      const { v1 } = await spansOf(answer);
      expect(v1.parentSpanId).toBe('');
      expect(v1.traceState ?? '').toBe('');
      for (const request of seenIn(traceId)) expect(request.headers.tracestate).toBeUndefined();
      expect(await lineOf(child, answer.requestId)).toMatchObject({ trace_id: traceId });
    }
    expect(receiver.bodies.join('\n')).not.toContain('script');
    expect(child.output()).not.toMatch(/script|xxxxxxxxxx/);
  });

  it('are exported at shutdown: a drain sends what is still queued', async () => {
    const child = await startExporting({ OTEL_BSP_SCHEDULE_DELAY: '600000' });
    const answer = await callWithTrace(child.url, '/user/get', { ...creds, id: sandbox.sandbox.master.ownerId }, {});
    const spanId = parentIdOf(answer.traceresponse)!;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.spans.some((s) => s.spanId === spanId)).toBe(false);
    const exited = new Promise<number | null>((resolve) => child.onExit(resolve));
    child.signal('SIGTERM');
    expect(await exited).toBe(0);
    expect(receiver.spans.filter((s) => s.spanId === spanId)).toHaveLength(1);
    expect(receiver.spans.filter((s) => s.parentSpanId === spanId)).toHaveLength(answer.v2Calls);
  });

  it('come from each worker under WORKERS=2, each with its own service.instance.id', async () => {
    const child = await startExporting({ WORKERS: '2' }, 40_000);
    const answers: TracedAnswer[] = [];
    for (let i = 0; i < 40 && new Set(answers.map((a) => a.worker)).size < 2; i++) {
      answers.push(await callWithTrace(child.url, '/user/get', { ...creds, id: sandbox.sandbox.master.ownerId }, {}));
    }
    const workers = new Set(answers.map((a) => Number(a.worker)));
    expect(workers.size).toBe(2);
    const instances = new Map<number, Set<string>>();
    for (const answer of answers) {
      const { v1, v2 } = await spansOf(answer);
      expect(v1.resource['process.pid']).toBe(Number(answer.worker));
      for (const span of [v1, ...v2]) expect(span.resource['process.pid']).toBe(v1.resource['process.pid']);
      const pid = Number(answer.worker);
      instances.set(pid, (instances.get(pid) ?? new Set()).add(String(v1.resource['service.instance.id'])));
    }
    expect([...instances.values()].map((ids) => ids.size)).toEqual([1, 1]);
    const [first, second] = [...instances.values()].map((ids) => [...ids][0]);
    expect(first).not.toBe(second);
  }, 90_000);
});
