import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { meetingHappened } from './reports-support.js';

/**
 * The rate-limit class of the dashboards v1gate added beside the two lists: /v1/metrics/* is
 * 1 per second per key (row "1 request per second"), not the lists' 1 per minute; and a detail,
 * which takes two report-class v2 calls, is paced under v2's 1/s instead of failing on a 429.
 */

const SPEC_SANDBOX_LIMITS = { scale: 1 };
const MAY = { from: '2024-05-01', to: '2024-05-31' };
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

let gw: TestGateway;
let meetingId: number;
beforeAll(async () => {
  gw = await startTestGateway(
    { V1_RATE_LIMITS: 'on', V2_RATE_LIMITS: 'on', UPSTREAM_MAX_ATTEMPTS: '1' },
    { sandboxLimits: SPEC_SANDBOX_LIMITS },
  );
  const ownerId = (await gw.v2('GET', '/users/me')).body.id;
  meetingId = (await meetingHappened(gw, ownerId, '2024-05-02T10:00:00Z', [{ name: 'Ann' }])).id;
});
afterAll(() => gw.close());

describe('v1 inbound limits of the dashboards', () => {
  it('/v1/metrics/crc, /im, /zoomrooms, /zoomroomdetail, /meetingdetail, /webinardetail, /qos: 1 per second per key', async () => {
    for (const [path, params] of [
      ['/metrics/crc', MAY],
      ['/metrics/im', MAY],
      ['/metrics/zoomrooms', {}],
      ['/metrics/zoomroomdetail', { id: 'x', ...MAY }],
      ['/metrics/meetingdetail', { meeting_id: String(meetingId), type: '2' }],
      ['/metrics/webinardetail', { meeting_id: '1', type: '2' }],
      ['/metrics/qos', { meeting_id: String(meetingId), type: '2' }],
    ] as const) {
      await pause(1100);
      const [first, second] = await Promise.all([gw.v1Raw(path, params), gw.v1Raw(path, params)]);
      const refused = [first, second].filter((r) => r.body.error?.code === 403);
      expect(refused, path).toHaveLength(1);
      expect(refused[0]!.headers.get('x-ratelimit-limit'), path).toBe('1');
    }
    // A second later the same path is admitted again: not the lists' 1 per minute.
    await pause(1100);
    expect((await gw.v1Raw('/metrics/crc', MAY)).body.error).toBeUndefined();
  });

  it("a detail's two report-class v2 calls are paced, never refused by v2", async () => {
    await pause(1100);
    const answer = await gw.v1Raw('/metrics/meetingdetail', { meeting_id: String(meetingId), type: '2' });
    expect(answer.body.error, JSON.stringify(answer.body)).toBeUndefined();
    expect(answer.body.participants_count).toBe(2);
    expect(answer.headers.get('x-v2-calls')).toBe('2');
  });
});
