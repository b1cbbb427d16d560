import { createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { postSignedEvent, signedHeaders, startReceiver, type Receiver } from '../support/webhook-receivers.js';

/**
 * The intake as today's v2 service speaks to it: every event signed with the app's secret token
 * (`x-zm-signature` over `v0:{x-zm-request-timestamp}:{raw body}`), the URL validation challenge,
 * and a rotation of the secret token. Each refusal is shown to reach nobody: the receiver hears
 * one notification at a time in the order they were journaled, so an event accepted after the
 * refused ones, heard as the next one, proves none of them was journaled.
 */

const SECRET = 'secret-token-of-today-0123';
const PREVIOUS = 'secret-token-before-rotation';
const ACCOUNT = 'acct-signed';
let gateway: TestGateway;
let receiver: Receiver;
let dir: string;
let next = 1;

/** A new event, each with its own instance uuid. */
function event(name = 'meeting.started') {
  const uuid = `uuid-${next++}==`;
  return {
    uuid,
    body: JSON.stringify({ event: name, event_ts: Date.now(), payload: { account_id: ACCOUNT, object: { id: 7, uuid, host_id: 'h' } } }),
  };
}

async function post(body: string, headers: Record<string, string>) {
  const response = await fetch(`${gateway.url}/webhooks/v2`, { method: 'POST', headers, body });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/**
 * Posts an accepted marker event and waits until the receiver hears it; answers what the receiver
 * heard from index `from` on, the marker last. Whatever was journaled before the marker was heard before it.
 */
async function heardUpToAMarker(from: number, url = gateway.url): Promise<{ marker: string; heard: unknown[] }> {
  const marker = event();
  expect((await postSignedEvent(url, SECRET, marker.body)).status).toBe(200);
  while (!receiver.received.some((r) => r.body.uuid === marker.uuid)) await new Promise((r) => setTimeout(r, 20));
  return { marker: marker.uuid, heard: receiver.received.slice(from).map((r) => r.body.uuid) };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'v1gate-signed-'));
  receiver = await startReceiver('strict');
  writeFileSync(join(dir, 'subs.json'), JSON.stringify([{ api_key: 'legacy', url: receiver.url }]));
  gateway = await startTestGateway({
    V1_WEBHOOKS_FILE: join(dir, 'subs.json'),
    V1_WEBHOOKS_JOURNAL: join(dir, 'journal'),
    V2_WEBHOOK_SECRET_TOKEN: SECRET,
    V2_WEBHOOK_PREVIOUS_SECRET_TOKEN: PREVIOUS,
    V1_WEBHOOKS_ANY_PORT: '1',
  });
});

afterAll(async () => {
  await gateway?.close();
  await receiver?.stop();
});

describe('events signed as the service signs them today', () => {
  it('a signed event with no verification token anywhere reaches the legacy v1 receiver', async () => {
    const signed = event('meeting.ended');
    const headers = signedHeaders(SECRET, signed.body);
    expect(Object.keys(headers)).not.toContain('authorization');
    expect(await post(signed.body, headers)).toEqual({ status: 200, body: { accepted: true, notifications: 1 } });
    await receiver.waitFor(1);
    expect(receiver.received.at(-1)!.body).toEqual({ id: '7', uuid: signed.uuid, status: 'ENDED', host_id: 'h' });
  });

  it('refuses a wrong signature, a forgotten or future timestamp and the old token alone, drops a replay, and notifies nobody', async () => {
    const from = receiver.received.length;
    const tampered = event();
    const headers = signedHeaders(SECRET, tampered.body);
    const refusals = [
      await post(tampered.body.replace('"id":7', '"id":8'), headers),
      await post(tampered.body, { ...headers, 'x-zm-signature': `v0=${'0'.repeat(64)}` }),
      await postSignedEvent(gateway.url, 'a-secret-of-another-app', event().body).then((r) => ({ status: r.status })),
      // Correctly signed, but dated before the day v1gate remembers what it took (or ten minutes ahead).
      await postSignedEvent(gateway.url, SECRET, event().body, Date.now() - 25 * 3_600_000).then((r) => ({ status: r.status })),
      await postSignedEvent(gateway.url, SECRET, event().body, Date.now() + 600_000).then((r) => ({ status: r.status })),
      // The sunset verification token, alone or beside a wrong signature: never taken for a signature.
      await post(event().body, { 'content-type': 'application/json', authorization: SECRET }),
      await post(tampered.body, { ...headers, 'x-zm-signature': `v0=${'1'.repeat(64)}`, authorization: SECRET }),
    ];
    expect(refusals.map((r) => r.status)).toEqual([401, 401, 401, 401, 401, 401, 401]);

    const taken = event();
    const sent = signedHeaders(SECRET, taken.body);
    expect((await post(taken.body, sent)).status).toBe(200);
    // The very same request again (same timestamp, same signature): a 2XX, so the service stops, and dropped.
    expect(await post(taken.body, sent)).toEqual({ status: 200, body: { accepted: true, notifications: 0 } });
    const { marker, heard } = await heardUpToAMarker(from);
    expect(heard).toEqual([taken.uuid, marker]);
  });

  it('answers a stale or unsigned request from its headers, without waiting for a body it declared', async () => {
    const port = new URL(gateway.url).port;
    const stale = String(Math.floor(Date.now() / 1000) - 25 * 3_600);
    for (const signature of [`x-zm-request-timestamp: ${stale}\r\nx-zm-signature: v0=${'a'.repeat(64)}\r\n`, '']) {
      const head = `POST /webhooks/v2 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n${signature}\r\n`;
      // Not a byte of the million is sent: an answer at all proves the intake did not wait for them.
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.write(head));
        let text = '';
        socket.on('data', (chunk) => {
          text += chunk.toString();
          if (text.includes('}')) {
            socket.destroy();
            resolve(text);
          }
        });
        socket.on('error', reject);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    }
  });

  it('answers the URL validation challenge with the HMAC of its plain token, only when signed', async () => {
    const challenge = JSON.stringify({
      payload: { plainToken: 'qgg8vlvZRS6UYooatFL8Aw' },
      event_ts: Date.now(),
      event: 'endpoint.url_validation',
    });
    const expected = createHmac('sha256', SECRET).update('qgg8vlvZRS6UYooatFL8Aw').digest('hex');
    expect(await post(challenge, signedHeaders(SECRET, challenge))).toEqual({
      status: 200,
      body: { plainToken: 'qgg8vlvZRS6UYooatFL8Aw', encryptedToken: expected },
    });
    expect((await post(challenge, { 'content-type': 'application/json' })).status).toBe(401);
    const malformed = JSON.stringify({ event: 'endpoint.url_validation', payload: {}, event_ts: 1 });
    expect((await post(malformed, signedHeaders(SECRET, malformed))).status).toBe(400);
  });

  it('takes both secret tokens during a rotation, and answers a challenge with the one that signed it', async () => {
    const from = receiver.received.length;
    const old = event();
    expect((await postSignedEvent(gateway.url, PREVIOUS, old.body)).status).toBe(200);
    expect((await postSignedEvent(gateway.url, 'a-third-secret-token', event().body)).status).toBe(401);
    const { marker, heard } = await heardUpToAMarker(from);
    expect(heard).toEqual([old.uuid, marker]);
    const challenge = JSON.stringify({ payload: { plainToken: 'rotation' }, event_ts: Date.now(), event: 'endpoint.url_validation' });
    expect((await post(challenge, signedHeaders(PREVIOUS, challenge))).body).toEqual({
      plainToken: 'rotation',
      encryptedToken: createHmac('sha256', PREVIOUS).update('rotation').digest('hex'),
    });
  });

  it('reads a secret token set under the old name V2_WEBHOOK_TOKEN, and then refuses the previous one', async () => {
    const renamed = await startTestGateway({
      V1_WEBHOOKS_FILE: join(dir, 'subs.json'),
      V1_WEBHOOKS_JOURNAL: join(dir, 'journal-renamed'),
      V2_WEBHOOK_TOKEN: SECRET,
      V1_WEBHOOKS_ANY_PORT: '1',
    });
    try {
      const from = receiver.received.length;
      const signed = event('meeting.ended');
      expect((await postSignedEvent(renamed.url, SECRET, signed.body)).status).toBe(200);
      expect((await postSignedEvent(renamed.url, PREVIOUS, event().body)).status).toBe(401);
      const { marker, heard } = await heardUpToAMarker(from, renamed.url);
      expect(heard).toEqual([signed.uuid, marker]);
    } finally {
      await renamed.close();
    }
  });
});
