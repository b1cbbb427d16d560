import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { MeetingsS2SAuthClient } from '@zoom/rivet/meetings';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REVALIDATE_AFTER_MS } from '../../src/sandbox/events.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';
import { startReceiver, type Receiver } from '../support/webhook-receivers.js';

/**
 * The sandbox sends events as today's service does: signed with each subscription's secret token,
 * and only to an endpoint that answered the URL validation challenge. The service's own Node SDK,
 * Rivet (@zoom/rivet), checks both independently: its receiver verifies every request's signature
 * and answers the challenge itself. Endpoints are real receivers on loopback (Rivet's HTTP
 * receiver, and receiver processes that record every request with its headers).
 */

const SECRET = 'the-app-secret-token-0123';
let running: RunningSandbox;
let offsetMs = 0;
const receivers: Receiver[] = [];

async function receiver(mode: string, port = 0): Promise<Receiver> {
  const started = await startReceiver(mode, port, '/events');
  receivers.push(started);
  return started;
}

/** A meeting of the master account, scheduled through v2. */
async function aMeeting(): Promise<number> {
  const created = await running.v2('POST', '/users/me/meetings', {
    body: { topic: 'Signed', type: 2, start_time: '2030-01-01T10:00:00Z' },
  });
  expect(created.status).toBe(201);
  return created.body.id as number;
}

/** The meeting starts now, so the sandbox emits `meeting.started` to every subscription of the master account; resolves once sent. */
async function starts(id: number): Promise<number> {
  expect((await running.control('POST', `/meetings/${id}/start`, {})).status).toBe(201);
  await running.sandbox.state.events.flushed();
  return id;
}

const aMeetingStarts = async () => starts(await aMeeting());
/** Rivet's receiver server, closed with its connections. */
function closed(server: { close(done: () => void): void; closeAllConnections?(): void }): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections?.();
  });
}

const subscribe = (account: string, body: Record<string, unknown>) =>
  running.control('PUT', `/accounts/${account}/event-subscription`, body);
const events = (r: Receiver) => r.received.filter((post) => post.body.event !== 'endpoint.url_validation');
const challenges = (r: Receiver) => r.received.filter((post) => post.body.event === 'endpoint.url_validation');

beforeAll(async () => {
  running = await startSandbox({ clock: { now: () => new Date(Date.now() + offsetMs) } });
});

afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
});

afterAll(async () => {
  await running?.close();
});

describe('the sandbox, checked by the service’s own SDK', () => {
  it('is validated by Rivet’s receiver and its events pass Rivet’s signature check', async () => {
    const rivet = new MeetingsS2SAuthClient({
      clientId: 'id',
      clientSecret: 'secret',
      accountId: 'acct',
      webhooksSecretToken: SECRET,
      port: 0,
    });
    const heard: Array<{ event: string; payload: { object: { id: number } } }> = [];
    rivet.webEventConsumer!.event('meeting.started', (event) => void heard.push(event as never));
    const server = await rivet.start();
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/zoom/events`;
      const subscribed = await subscribe(running.sandbox.master.id, { url, secret_token: SECRET });
      expect(subscribed.body).toMatchObject({ url, validated: true, validation_error: null, withheld: 0 });
      const id = await aMeetingStarts();
      // A meeting's events carry its id as a string (the service's Node SDK types: MeetingStartedEvent).
      expect(heard.map((e) => [e.event, e.payload.object.id])).toEqual([['meeting.started', String(id)]]);
    } finally {
      await closed(server);
    }
  });

  it('fails Rivet’s validation when the secrets differ, and then sends that endpoint nothing', async () => {
    const rivet = new MeetingsS2SAuthClient({
      clientId: 'id',
      clientSecret: 'secret',
      accountId: 'acct',
      webhooksSecretToken: 'another-secret',
      port: 0,
    });
    const heard: unknown[] = [];
    rivet.webEventConsumer!.event('meeting.started', (event) => void heard.push(event));
    const server = await rivet.start();
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/zoom/events`;
      const subscribed = await subscribe(running.sandbox.master.id, { url, secret_token: SECRET });
      // Rivet refuses the challenge itself (400): its signature is not one of Rivet's secret.
      expect(subscribed.body).toMatchObject({ validated: false, validation_error: 'the endpoint answered 400' });
      await aMeetingStarts();
      expect(heard).toEqual([]);
      expect((await running.control('GET', '/event-subscriptions')).body.subscriptions).toContainEqual(
        expect.objectContaining({ url, validated: false, withheld: 1 }),
      );
    } finally {
      await closed(server);
    }
  });
});

describe('what each endpoint is sent', () => {
  it('signed events with a timestamp in seconds and no Authorization header, after one challenge', async () => {
    const endpoint = await receiver(`v2:${SECRET}`);
    expect((await subscribe(running.sandbox.master.id, { url: endpoint.url, secret_token: SECRET })).body.validated).toBe(true);
    const id = await aMeetingStarts();
    await endpoint.waitFor(2);
    expect(challenges(endpoint)).toHaveLength(1);
    const [sent] = events(endpoint);
    expect(sent!.body).toMatchObject({ event: 'meeting.started', payload: { object: { id: String(id) } } });
    const timestamp = sent!.headers!['x-zm-request-timestamp']!;
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
    const hmac = createHmac('sha256', SECRET)
      .update(`v0:${timestamp}:${JSON.stringify(sent!.body)}`)
      .digest('hex');
    expect(sent!.headers).toEqual({ 'x-zm-signature': `v0=${hmac}`, 'x-zm-request-timestamp': timestamp });
  });

  it('an endpoint that answers the challenge wrongly receives nothing but challenges', async () => {
    const wrong = await receiver('v2:a-secret-the-sandbox-does-not-use');
    const subscribed = await subscribe('*', { url: wrong.url, secret_token: SECRET });
    expect(subscribed.body).toMatchObject({ validated: false, validation_error: 'the encryptedToken is not the HMAC of the plainToken' });
    await aMeetingStarts();
    await aMeetingStarts();
    expect((await running.control('POST', '/accounts/*/event-subscription/validate')).body).toMatchObject({
      validated: false,
      withheld: 2,
    });
    // The second challenge was sent after the two events would have been, and is heard in order: nothing came between.
    await wrong.waitFor(2);
    expect(wrong.received.map((post) => post.body.event)).toEqual(['endpoint.url_validation', 'endpoint.url_validation']);
  });

  it('an endpoint down when subscribed is validated on demand once up, and hears only what happens after', async () => {
    const probe = await startReceiver('strict');
    const port = probe.port;
    await probe.stop();
    const url = `http://127.0.0.1:${port}/events`;
    expect((await subscribe('*', { url, secret_token: SECRET })).body).toMatchObject({ validated: false });
    await aMeetingStarts(); // withheld: the endpoint is not validated
    const endpoint = await receiver(`v2:${SECRET}`, port);
    expect((await running.control('POST', '/accounts/*/event-subscription/validate')).body).toMatchObject({ validated: true, withheld: 1 });
    const id = await aMeetingStarts();
    await endpoint.waitFor(2);
    expect(endpoint.received.map((post) => post.body.event)).toEqual(['endpoint.url_validation', 'meeting.started']);
    expect(events(endpoint)[0]!.body).toMatchObject({ payload: { object: { id: String(id) } } });
  });

  it('validates an endpoint again before the first event 72 hours after it last answered', async () => {
    const endpoint = await receiver(`v2:${SECRET}`);
    const first = await subscribe('*', { url: endpoint.url, secret_token: SECRET });
    // Scheduled first: the v2 tokens are signed by the machine's clock, which the sandbox's no longer matches below.
    const [a, b, c] = [await aMeeting(), await aMeeting(), await aMeeting()];
    try {
      await starts(a);
      offsetMs = REVALIDATE_AFTER_MS - 60_000;
      await starts(b);
      offsetMs = REVALIDATE_AFTER_MS;
      await starts(c);
      await endpoint.waitFor(5);
      expect(endpoint.received.map((post) => post.body.event)).toEqual([
        'endpoint.url_validation',
        'meeting.started',
        'meeting.started',
        'endpoint.url_validation',
        'meeting.started',
      ]);
      const { subscriptions } = (await running.control('GET', '/event-subscriptions')).body as {
        subscriptions: Array<{ url: string; validated_at: string }>;
      };
      const now = subscriptions.find((s) => s.url === endpoint.url)!;
      expect(Date.parse(now.validated_at) - Date.parse(first.body.validated_at)).toBeGreaterThanOrEqual(REVALIDATE_AFTER_MS);
    } finally {
      offsetMs = 0;
    }
  });

  it('with auth verification-token: the old Authorization header only, no signature and no challenge', async () => {
    const endpoint = await receiver('v2:unused');
    const subscribed = await subscribe('*', { url: endpoint.url, secret_token: 'old-verification-token', auth: 'verification-token' });
    expect(subscribed.body).toMatchObject({ auth: 'verification-token', validated: true });
    await aMeetingStarts();
    await endpoint.waitFor(1);
    expect(endpoint.received.map((post) => [post.body.event, post.headers])).toEqual([
      ['meeting.started', { authorization: 'old-verification-token' }],
    ]);
  });

  it('refuses a subscription without a secret token, or with an unknown auth, and keeps the one it had', async () => {
    const before = (await running.control('GET', '/event-subscriptions')).body;
    expect((await subscribe('*', { url: 'http://127.0.0.1:9/events' })).status).toBe(400);
    expect((await subscribe('*', { url: 'http://127.0.0.1:9/events', secret_token: SECRET, auth: 'none' })).status).toBe(400);
    expect((await running.control('POST', '/accounts/no-such-account/event-subscription/validate')).status).toBe(404);
    expect((await running.control('GET', '/event-subscriptions')).body).toEqual(before);
  });
});
