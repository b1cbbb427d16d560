import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { expectExampleShape, expectV1Error, NO_LIMITS } from '../support/v1-answers.js';
import { meetingHappened } from './reports-support.js';

/** v1's audio report over telephone legs the sandbox's control API played into meetings that happened. */

let gw: TestGateway;
let meeting: { id: number; uuid: string };
const JAN = { from: '2024-01-01', to: '2024-01-31' };

beforeAll(async () => {
  gw = await startTestGateway(NO_LIMITS);
  const ownerId = (await gw.v2('GET', '/users/me')).body.id;
  meeting = await meetingHappened(gw, ownerId, '2024-01-12T02:00:00Z', [], 60);
  const legs = [
    {
      direction: 'call-out',
      phone_number: '+86 8208',
      start_time: '2024-01-12T02:25:34Z',
      end_time: '2024-01-12T02:26:48Z',
      total: 0.12,
      country_name: 'China',
    },
    {
      direction: 'call-in',
      phone_number: '+1 555 0100',
      call_in_number: '+1 669 900 6833',
      start_time: '2024-01-12T02:05:00Z',
      end_time: '2024-01-12T02:35:00Z',
      total: 1.5,
    },
  ];
  for (const leg of legs) expect((await gw.control('POST', `/meetings/${meeting.id}/phone-legs`, leg)).status).toBe(201);
});
afterAll(() => gw.close());

describe('/report/getaudioreport', () => {
  it('answers the telephone legs in the shape of the reference, oldest first', async () => {
    const answer = await gw.v1('/report/getaudioreport', JAN);
    expectExampleShape(answer, '/report/getaudioreport', { inOrder: true });
    for (const leg of answer.telephony_usage) expectExampleShape(leg, '/report/getaudioreport', { item: 'telephony_usage', inOrder: true });
    expect(answer).toMatchObject({ from: '2024-01-01', to: '2024-01-31', page_count: 1, page_number: 1, page_size: 30, total_records: 2 });
    const [callIn, callOut] = answer.telephony_usage;
    expect(callIn).toMatchObject({ meeting_id: meeting.id, phone_number: '+1 555 0100', type: 'call-in', duration: 30, total: 1.5 });
    expect(callOut).toMatchObject({
      phone_number: '+86 8208',
      type: 'call-out',
      start_time: '2024-01-12T02:25:34Z',
      end_time: '2024-01-12T02:26:48Z',
      duration: 2,
      total: 0.12,
    });
    expect(callOut.host_email).toBe((await gw.v2('GET', '/users/me')).body.email);
  });

  it('pages by number; other dates have no legs', async () => {
    const second = await gw.v1('/report/getaudioreport', { ...JAN, page_size: '1', page_number: '2' });
    expect(second).toMatchObject({ page_count: 2, page_number: 2, page_size: 1, total_records: 2 });
    expect(second.telephony_usage.map((l: any) => l.type)).toEqual(['call-out']);
    expect((await gw.v1('/report/getaudioreport', { from: '2024-02-01', to: '2024-02-29' })).telephony_usage).toEqual([]);
  });

  it('answers v1 errors: a missing date, toll calls (no v2 report), a wrong secret', async () => {
    const missing = await gw.v1Raw('/report/getaudioreport', { to: '2024-01-31' });
    expectV1Error(missing.body, 300, 'from is required.');
    expect(missing.headers.get('x-v2-calls')).toBe('0');
    expectV1Error(await gw.v1('/report/getaudioreport', { ...JAN, type: '2' }), 300, /type/);
    expectV1Error(await gw.v1('/report/getaudioreport', { ...JAN, api_secret: 'wrong' }), 102);
  });
});
