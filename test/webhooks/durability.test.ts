import { afterAll, expect, it } from 'vitest';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';
import { postSignedEvent, startReceiver, subscriptionToADownReceiver, type Receiver } from '../support/webhook-receivers.js';

/**
 * Nothing acknowledged is lost: a gateway process is SIGKILLed with notifications pending (their
 * receiver down, one attempt already spent), a new process on the same journal resumes them with
 * their attempt counts, and every one is delivered once the receiver is back.
 */

const TOKEN = 'durability-token';
const gateways: GatewayProcess[] = [];
let receiver: Receiver | undefined;

afterAll(async () => {
  await Promise.all(gateways.map((g) => g.kill()));
  await receiver?.stop();
});

it('resumes pending notifications after a SIGKILL and delivers all of them', async () => {
  // The receiver stays down while the first gateway runs.
  const { port, env } = await subscriptionToADownReceiver(TOKEN);

  // A backoff far longer than the test: after its first refused attempt each job waits, pending.
  // Direct: the SIGKILL ends the gateway itself (under the tsx CLI it would survive as an orphan).
  const first = await startGatewayProcess({ ...env, V1_WEBHOOKS_BACKOFF_MS: '3600000' });
  gateways.push(first);
  const uuids = Array.from({ length: 20 }, (_, i) => `uuid-${i}`);
  for (const uuid of uuids) {
    const body = JSON.stringify({
      event: 'meeting.ended',
      event_ts: 1,
      payload: { account_id: 'a', object: { id: 123, uuid, host_id: 'h' } },
    });
    const response = await postSignedEvent(first.url, TOKEN, body);
    expect(response.status).toBe(200);
  }
  await first.kill();

  receiver = await startReceiver('strict', port);
  gateways.push(await startGatewayProcess({ ...env, V1_WEBHOOKS_BACKOFF_MS: '10' }));
  await receiver.waitFor(uuids.length);
  expect(receiver.received.map((r) => r.body.uuid).sort()).toEqual([...uuids].sort());
  expect(new Set(receiver.received.map((r) => r.body.uuid)).size).toBe(uuids.length);
});
