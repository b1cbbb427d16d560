import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { meetingHappened } from './reports-support.js';

/**
 * The limits as production clients lived with them (docs/decisions.md, Rate limits): a list and
 * then a dashboard call for the same key, back to back, are both served; a dashboard list asked
 * for v1's general maximum page (300) is served, where it was refused above 100.
 */

let gw: TestGateway;
let ownerId: string;
beforeAll(async () => {
  gw = await startTestGateway({ V1_RATE_LIMITS: 'on' });
  ownerId = (await gw.v2('GET', '/users/me')).body.id as string;
});
afterAll(() => gw.close());

describe('lists and dashboards have buckets of their own', () => {
  it('a list call and at once a dashboard call of the same key are both served', async () => {
    const held = await meetingHappened(gw, ownerId, '2024-05-06T10:00:00Z', [{ name: 'Ann' }]);
    const [list, dashboard] = await Promise.all([
      gw.v1('/user/list', {}),
      gw.v1('/metrics/meetingdetail', { meeting_id: held.uuid, type: 2 }),
    ]);
    expect(list.error).toBeUndefined();
    expect(dashboard.error).toBeUndefined();
  });

  it('two different lists of one key at once are both served: each list endpoint has its own 1/s', async () => {
    const [meetings, groups] = await Promise.all([gw.v1('/meeting/list', { host_id: ownerId }), gw.v1('/group/list', {})]);
    expect(meetings.error).toBeUndefined();
    expect(groups.error).toBeUndefined();
  });

  it('the same list twice at once: the second is refused with the v1 rate-limit error', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // the bucket the test above spent is full again
    const [first, second] = await Promise.all([gw.v1('/group/list', {}), gw.v1('/group/list', {})]);
    const errors = [first.error, second.error].filter(Boolean);
    expect(errors).toHaveLength(1);
    expect(errors[0].code).toBe(403);
  });
});

describe('page_size to 300 on the dashboard lists', () => {
  it('/metrics/meetings serves page_size=300 with every past meeting on the page', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100)); // the dashboard bucket of the test above refills
    for (const day of ['2024-06-03', '2024-06-04', '2024-06-05']) await meetingHappened(gw, ownerId, `${day}T10:00:00Z`);
    const answer = await gw.v1('/metrics/meetings', { type: 2, from: '2024-06-01', to: '2024-06-30', page_size: 300 });
    expect(answer.error).toBeUndefined();
    expect(answer.page_size).toBe(300);
    expect(answer.meetings).toHaveLength(3);
    expect(answer.total_records).toBe(3);
  });

  it('page_size=301 is still refused, naming the field', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const held = await meetingHappened(gw, ownerId, '2024-06-07T10:00:00Z', [{ name: 'Ann' }]);
    // meetingdetail, in the 1/s dashboard class: /metrics/meetings allows one call a minute.
    const answer = await gw.v1('/metrics/meetingdetail', { meeting_id: held.uuid, type: 2, page_size: 301 });
    expect(answer.error.code).toBe(300);
    expect(answer.error.message).toMatch(/page_size/);
  });
});
