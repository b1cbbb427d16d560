import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFaultUpstream, type FaultUpstream } from '../support/fault-upstream.js';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';
import { callWithTrace, lineOf, parentIdOf, traceIdOf } from './support.js';

/**
 * Without an exporter the trace context still travels (the client's trace continued to v2, its id
 * on the log line and the answer), and the OpenTelemetry SDK is never loaded: the gateway process
 * runs with a module hook (loads/record-loads.mjs) that writes down every module it imports.
 */
let sandbox: RunningSandbox;
let faults: FaultUpstream;
let gateway: GatewayProcess | undefined;
let creds: { api_key: string; api_secret: string };
let dir: string;

const HOOK = new URL('./loads/record-loads.mjs', import.meta.url).href;
const CLIENT_TRACE = '0af7651916cd43dd8448eb211c80319c';
const CLIENT_SPAN = 'b7ad6b7169203331';

beforeAll(async () => {
  sandbox = await startSandbox();
  faults = await startFaultUpstream(`${sandbox.url}/v2`);
  creds = { api_key: sandbox.sandbox.credentials.apiKey, api_secret: sandbox.sandbox.credentials.apiSecret };
  dir = mkdtempSync(join(tmpdir(), 'v1gate-loads-'));
});
afterEach(async () => {
  await gateway?.kill();
  gateway = undefined;
  faults.seen.length = 0;
});
afterAll(async () => {
  await faults.close();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A gateway process whose imports are written to a file; returns the file. */
async function startRecorded(name: string, env: Record<string, string> = {}): Promise<string> {
  const modules = join(dir, `${name}.txt`);
  gateway = await startGatewayProcess({
    V2_BASE_URL: faults.url,
    V1_RATE_LIMITS: 'off',
    V2_RATE_LIMITS: 'off',
    LOG_LEVEL: 'info',
    NODE_OPTIONS: `--import=${HOOK}`,
    V1GATE_TEST_MODULE_LOG: modules,
    ...env,
  });
  return modules;
}

const loaded = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);

describe('trace context without an exporter', () => {
  it("continues the client's trace to every v2 call, on the log line and the answer, and never loads the SDK", async () => {
    const modules = await startRecorded('no-exporter');
    const answer = await callWithTrace(
      gateway!.url,
      '/user/get',
      { ...creds, id: sandbox.sandbox.master.ownerId },
      {
        traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`,
        tracestate: 'congo=t61rcWkgMzE',
      },
    );
    expect(answer.body).toMatchObject({ id: sandbox.sandbox.master.ownerId });
    // The answer names the trace and the gateway's own span in it, with the client's flags.
    expect(answer.traceresponse).toMatch(new RegExp(`^00-${CLIENT_TRACE}-[\\da-f]{16}-01$`));
    const spanId = parentIdOf(answer.traceresponse)!;
    expect(spanId).not.toBe(CLIENT_SPAN);
    expect(faults.seen).toHaveLength(answer.v2Calls);
    for (const request of faults.seen) {
      expect(request.headers.traceparent).toBe(`00-${CLIENT_TRACE}-${spanId}-01`);
      expect(request.headers.tracestate).toBe('congo=t61rcWkgMzE');
    }
    expect(await lineOf(gateway!, answer.requestId)).toMatchObject({ trace_id: CLIENT_TRACE, span_id: spanId });

    const urls = loaded(modules);
    expect(urls.some((url) => url.endsWith('/dist/src/ops/tracing.js'))).toBe(true); // the hook saw the gateway's own modules
    expect(urls.filter((url) => url.includes('@opentelemetry'))).toEqual([]);
  });

  it('starts a new trace for a call without a traceparent (or with a malformed one), the same id everywhere', async () => {
    await startRecorded('new-trace');
    for (const trace of [{}, { traceparent: 'not-a-traceparent', tracestate: 'rojo=1' }]) {
      faults.seen.length = 0;
      const answer = await callWithTrace(gateway!.url, '/user/get', { ...creds, id: sandbox.sandbox.master.ownerId }, trace);
      const traceId = traceIdOf(answer.traceresponse)!;
      expect(traceId).toMatch(/^[\da-f]{32}$/);
      // Nothing was recorded, so nothing is claimed: not sampled.
      expect(answer.traceresponse).toMatch(/-00$/);
      expect(faults.seen.length).toBeGreaterThan(0);
      for (const request of faults.seen) {
        expect(traceIdOf(request.headers.traceparent)).toBe(traceId);
        expect(request.headers.tracestate).toBeUndefined();
      }
      expect(await lineOf(gateway!, answer.requestId)).toMatchObject({ trace_id: traceId });
    }
  });

  it('loads the SDK when an endpoint is set (the hook does see it)', async () => {
    const receiver: OtlpReceiver = await startOtlpReceiver();
    try {
      const modules = await startRecorded('exporter', { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint });
      expect(loaded(modules).some((url) => url.includes('/@opentelemetry/sdk-trace/'))).toBe(true);
    } finally {
      await receiver.close();
    }
  });
});
