import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DELIVERY_DEADLINE_MS, RETRY_AFTER_MS } from '../../src/sandbox/events.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { FUTURE } from '../support/v1-answers.js';
import { startReceiver, type Receiver } from '../support/webhook-receivers.js';

/**
 * Push events across the service's retries, end to end: the sandbox sends each event as the
 * service does (a 2XX within 3 s, else again 5, 20 and 60 minutes later, here a thousand times
 * sooner; each retry the same signed request, its first timestamp kept), through a relay that
 * can play a stopped or a slow gateway, to the gateway's intake, which notifies the v1 receiver.
 */

const SCALE = 0.001;
const SECRET = 'service-retries-secret-token';
let gateway: TestGateway;
let receiver: Receiver;
let relay: Relay;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'v1gate-service-retries-'));
  receiver = await startReceiver('strict');
  writeFileSync(join(dir, 'subs.json'), JSON.stringify([{ api_key: 'legacy', url: receiver.url }]));
  gateway = await startTestGateway({
    V1_WEBHOOKS_FILE: join(dir, 'subs.json'),
    V1_WEBHOOKS_JOURNAL: join(dir, 'journal'),
    V2_WEBHOOK_SECRET_TOKEN: SECRET,
    V1_WEBHOOKS_ANY_PORT: '1',
  });
  relay = await startRelay(`${gateway.url}/webhooks/v2`);
  const subscribed = await gateway.control('PUT', '/accounts/*/event-subscription', {
    url: relay.url,
    secret_token: SECRET,
    retry_scale: SCALE,
    client_id: 'client-id-of-the-app',
  });
  expect(subscribed.body).toMatchObject({ validated: true });
});
beforeEach(() => {
  relay.mode = 'up';
  relay.seen.length = 0;
});
afterAll(async () => {
  await relay?.close();
  await gateway?.close();
  await receiver?.stop();
});

const sends = () => gateway.sandbox.state.events.sent;

/** Starts a new meeting in the sandbox: one `meeting.started` event. Answers its instance's uuid. */
async function startAMeeting(): Promise<string> {
  const hostId = (await gateway.v2('GET', '/users/me')).body.id as string;
  const created = await gateway.v1('/meeting/create', { host_id: hostId, type: '2', topic: 'Retried', start_time: FUTURE });
  const started = await gateway.control('POST', `/meetings/${created.id}/start`, {});
  expect(started.status).toBe(201);
  return started.body.uuid as string;
}

async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 20));
}

const heard = (uuid: string) => receiver.received.filter((r) => r.body.uuid === uuid);

describe("an event v1gate missed reaches the v1 receiver once, from the service's next retry", () => {
  it('v1gate stopped: the first send finds nobody, the retry 5 (scaled) minutes later is taken', async () => {
    relay.mode = 'down';
    const from = sends().length;
    const uuid = await startAMeeting();
    await until(() => sends().length > from);
    const first = sends()[from]!;
    expect(first).toMatchObject({ event: 'meeting.started', attempt: 1, status: 'no answer' });
    relay.mode = 'up';
    await until(() => heard(uuid).length === 1);
    const retry = sends()[from + 1]!;
    expect(retry).toMatchObject({ event: 'meeting.started', attempt: 2, status: 200 });
    expect(retry.at - first.at).toBeGreaterThanOrEqual(RETRY_AFTER_MS[0] * SCALE * 0.9);
    // The retry is the first request again: its first timestamp, its first signature.
    const [down, taken] = relay.seen.filter((r) => r.body.includes(uuid));
    expect(taken!.headers['x-zm-request-timestamp']).toBe(down!.headers['x-zm-request-timestamp']);
    expect(taken!.headers['x-zm-signature']).toBe(down!.headers['x-zm-signature']);
    // Nothing more is sent for it, and it is heard once, past the rest of the schedule.
    await new Promise((resolve) => setTimeout(resolve, (RETRY_AFTER_MS[1] + RETRY_AFTER_MS[2]) * SCALE + 200));
    expect(
      sends()
        .slice(from)
        .filter((s) => s.event === 'meeting.started'),
    ).toHaveLength(2);
    expect(heard(uuid)).toHaveLength(1);
  });

  it('v1gate slower than 3 s: the service counts it missed and sends again; the retry is answered 2XX and notifies nobody again', async () => {
    relay.mode = 'slow';
    const from = sends().length;
    const uuid = await startAMeeting();
    await until(() => sends().length > from);
    relay.mode = 'up';
    expect(sends()[from]).toMatchObject({ attempt: 1, status: 'no answer' });
    await until(() => sends().length > from + 1);
    expect(sends()[from + 1]).toMatchObject({ attempt: 2, status: 200 });
    await until(() => heard(uuid).length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(heard(uuid)).toHaveLength(1);
  });

  it('a replay of an event already taken is answered 2XX and notifies nobody', async () => {
    const uuid = await startAMeeting();
    await until(() => heard(uuid).length === 1);
    const taken = relay.seen.find((r) => r.body.includes(uuid))!;
    const headers = Object.fromEntries(
      ['content-type', 'x-zm-request-timestamp', 'x-zm-signature'].map((name) => [name, String(taken.headers[name])]),
    );
    const replayed = await fetch(`${gateway.url}/webhooks/v2`, { method: 'POST', headers, body: taken.body });
    expect(replayed.status).toBe(200);
    expect(await replayed.json()).toEqual({ accepted: true, notifications: 0 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard(uuid)).toHaveLength(1);
  });
});

describe('what the sandbox sends, as the service sends it today', () => {
  it("meeting.started carries the id as a string, the timezone and duration, and the service's headers", async () => {
    const uuid = await startAMeeting();
    await until(() => heard(uuid).length === 1);
    const request = relay.seen.find((r) => r.body.includes(uuid))!;
    expect(request.headers['user-agent']).toBe('Zoom Marketplace/1.0a');
    expect(request.headers['clientid']).toBe('client-id-of-the-app');
    expect(request.headers['x-zm-trackingid']).toMatch(/^v=2\.0;clid=us06;rid=WEB_[0-9a-f]{32}$/);
    const object = (JSON.parse(request.body) as { payload: { object: Record<string, unknown> } }).payload.object;
    expect(object).toMatchObject({ id: expect.any(String), uuid, timezone: expect.any(String), duration: expect.any(Number) });
    expect(DELIVERY_DEADLINE_MS).toBe(3_000);
  });
});

interface Relay {
  url: string;
  /** `down`: every connection is closed unanswered; `slow`: forwarded, its answer held past the 3 s deadline. */
  mode: 'up' | 'down' | 'slow';
  seen: { headers: IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

/** A relay in front of the intake, standing for the gateway as the service sees it: up, stopped, or slow. */
async function startRelay(target: string): Promise<Relay> {
  const sockets = new Set<Socket>();
  const relayState: Relay = { url: '', mode: 'up', seen: [], close };
  const server: Server = createServer((request, response) => {
    const { mode } = relayState;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      relayState.seen.push({ headers: request.headers, body });
      // Stopped: what was sent is seen here, and the connection closes unanswered.
      if (mode === 'down') return void request.socket.destroy();
      const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => name !== 'host' && name !== 'content-length'));
      void fetch(target, { method: 'POST', headers: headers as Record<string, string>, body }).then(async (answer) => {
        const text = await answer.text();
        const reply = () => response.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
        if (mode === 'slow') setTimeout(reply, DELIVERY_DEADLINE_MS + 500);
        else reply();
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  relayState.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/relay`;
  function close(): Promise<void> {
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => server.close(() => resolve()));
  }
  return relayState;
}
