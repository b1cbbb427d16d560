import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCalls, type RecordedCall } from '../../src/compare/calls.js';
import { compareCalls } from '../../src/compare/compare.js';
import { endpointFacts } from '../../src/compare/endpoint-facts.js';
import { liveTarget } from '../../src/compare/replay.js';
import { loadConfig } from '../../src/config.js';
import { startGateway, type RunningGateway } from '../../src/gateway.js';
import { ALL_ENDPOINTS } from '../../src/translators/endpoints.js';
import { startTestGateway, testLogEnv, type TestGateway } from '../support/gateway.js';

/**
 * A replay covers every recorded call: paced to v1's own limits per target and key, so one key
 * against targets that enforce them is never refused (list calls are 1/s), and a refusal that
 * comes anyway is waited out and sent again.
 */

const dir = mkdtempSync(join(tmpdir(), 'v1gate-replay-'));
const owner = 'owner@sandbox.v1gate.local';
let recorder: TestGateway;
let calls: RecordedCall[];

/** A v1gate over the recorder's sandbox, with v1's limits on (times `scale`). */
const limitedGateway = (scale = '1'): Promise<RunningGateway> =>
  startGateway(loadConfig({ PORT: '0', V2_BASE_URL: recorder.v2BaseUrl, V1_RATE_LIMITS: 'on', RATE_LIMIT_SCALE: scale, ...testLogEnv() }));

const creds = () => ({ apiKey: recorder.credentials.api_key, apiSecret: recorder.credentials.api_secret });

beforeAll(async () => {
  const file = join(dir, 'calls.jsonl');
  recorder = await startTestGateway({ V1_RECORD_FILE: file });
  const me = await recorder.v1('/user/getbyemail', { email: owner });
  // A mix with list calls (v1's 1/s class) next to each other, as a client's traffic has them.
  await recorder.v1('/user/list', {});
  await recorder.v1('/group/list', {});
  await recorder.v1('/user/get', { id: me.id });
  await recorder.v1('/meeting/list', { host_id: me.id });
  await recorder.v1('/user/checkemail', { email: owner });
  await recorder.v1('/user/get', { id: me.id, data_type: 'XML' });
  calls = readCalls(file);
});
afterAll(async () => {
  await recorder?.close();
});

describe('a replay with one key', () => {
  it(
    "against one target both sides share: every call compared, none refused, no difference (v1's list limit paced)",
    { timeout: 90_000 },
    async () => {
      const target = await limitedGateway();
      try {
        const report = await compareCalls(calls, {
          a: liveTarget(target.url, creds()),
          b: liveTarget(target.url, creds()),
          writes: false,
          ...endpointFacts(ALL_ENDPOINTS),
        });
        expect(report.summary).toMatchObject({
          recorded: 7,
          compared: 7,
          differing_calls: 0,
          real_differences: 0,
          not_compared: { writes: 0, limited: 0, failed: 0, dropped: 0 },
        });
        expect(report.summary.line).toMatch(/^7 recorded calls: 7 compared \(0 with real differences\)/);
      } finally {
        await target.close();
      }
    },
  );

  it(
    'against a target stricter than v1: the refusals are waited out (Retry-After) and sent again, and every call is compared',
    { timeout: 90_000 },
    async () => {
      // A fifth of v1's limits: the pace a v1 client may keep (one list a second) is refused here,
      // and a list's second call comes well within the five seconds its bucket takes to refill,
      // however slow a loaded machine makes the first; only waiting makes it through.
      const target = await limitedGateway('0.2');
      const progress: number[] = [];
      try {
        const report = await compareCalls(
          calls.filter((c) => c.path.endsWith('/list')),
          {
            a: liveTarget(target.url, creds()),
            b: liveTarget(target.url, creds()),
            writes: false,
            ...endpointFacts(ALL_ENDPOINTS),
            concurrency: 2,
            onProgress: (p) => progress.push(p.done),
          },
        );
        expect(report.summary).toMatchObject({ recorded: 3, compared: 3, real_differences: 0, not_compared: { limited: 0 } });
        expect(report.summary.retried).toBeGreaterThan(0);
        expect(report.summary.line).toMatch(/waited out a rate limit and retried/);
        expect(progress).toEqual([1, 2, 3]);
      } finally {
        await target.close();
      }
    },
  );
});
