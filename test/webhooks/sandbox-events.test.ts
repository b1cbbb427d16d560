import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { FUTURE } from '../support/v1-answers.js';
import { startReceiver, type Receiver } from '../support/webhook-receivers.js';

/**
 * The whole path with the embedded sandbox: a meeting created through v1 happens through the
 * sandbox control API; the sandbox emits v2 events to the gateway's own intake, which notifies the
 * v1 subscriber of each, in order, exactly as v1 did.
 */

let gateway: TestGateway;
let receiver: Receiver;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'v1gate-sandbox-events-'));
  receiver = await startReceiver('strict');
  writeFileSync(join(dir, 'subs.json'), JSON.stringify([{ api_key: 'legacy', url: receiver.url }]));
  gateway = await startTestGateway({
    V1_WEBHOOKS_FILE: join(dir, 'subs.json'),
    V1_WEBHOOKS_JOURNAL: join(dir, 'journal'),
    V2_WEBHOOK_SECRET_TOKEN: 'sandbox-events-secret-token',
    V1_WEBHOOKS_ANY_PORT: '1',
  });
});

afterAll(async () => {
  await gateway?.close();
  await receiver?.stop();
});

it('a v1 meeting that waits, starts, ends and is recorded notifies JOIN, STARTED, ENDED, RECORDING_MEETING_COMPLETED', async () => {
  const hostId = (await gateway.v2('GET', '/users/me')).body.id;
  const created = await gateway.v1('/meeting/create', { host_id: hostId, type: '2', topic: 'Webhooks', start_time: FUTURE });
  const id = created.id as number;
  expect((await gateway.control('POST', `/meetings/${id}/attendee-before-host`)).body.attendee).toBe('waiting');
  const started = await gateway.control('POST', `/meetings/${id}/start`, {});
  expect(started.status).toBe(201);
  expect((await gateway.control('POST', `/meetings/${id}/end`, { recording: true })).status).toBe(200);

  await receiver.waitFor(4);
  const uuid = started.body.uuid as string;
  expect(receiver.received.map((r) => r.body)).toEqual([
    { id: String(id), uuid: created.uuid, status: 'JOIN', host_id: hostId },
    { id: String(id), uuid, status: 'STARTED', host_id: hostId },
    { id: String(id), uuid, status: 'ENDED', host_id: hostId },
    { id: String(id), uuid, status: 'RECORDING_MEETING_COMPLETED', host_id: hostId },
  ]);
});

it('the sandbox control API refuses a subscription without a URL and changes nothing', async () => {
  const refused = await gateway.control('PUT', '/accounts/*/event-subscription', { url: 'not a url', secret_token: 't' });
  expect(refused.status).toBe(400);
  expect((await gateway.control('PUT', '/accounts/*/event-subscription', { url: gateway.url })).status).toBe(400);
  expect(gateway.sandbox.state.events.list()).toEqual([
    expect.objectContaining({
      account_id: '*',
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/webhooks\/v2$/),
      auth: 'signature',
      validated: true,
      withheld: 0,
    }),
  ]);
});

it('a webinar ended by the v1 /webinar/end call (v2 status action) notifies ENDED with the webinar number', async () => {
  const hostId = (await gateway.v2('GET', '/users/me')).body.id;
  const created = await gateway.v1('/webinar/create', { host_id: hostId, type: '5', topic: 'Launch', start_time: FUTURE });
  expect(created.error).toBeUndefined();
  const before = receiver.received.length;
  const started = await gateway.control('POST', `/meetings/${created.id}/start`, {});
  expect(started.status).toBe(201);
  const ended = await gateway.v1('/webinar/end', { id: created.id, host_id: hostId });
  expect(ended.error).toBeUndefined();
  await receiver.waitFor(before + 2);
  expect(receiver.received.slice(before).map((r) => r.body)).toEqual([
    { id: String(created.id), uuid: started.body.uuid, status: 'STARTED', host_id: hostId },
    { id: String(created.id), uuid: started.body.uuid, status: 'ENDED', host_id: hostId },
  ]);
});
