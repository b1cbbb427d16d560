import { afterAll, describe, expect, it } from 'vitest';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';
import { startRedis, type RunningRedis } from '../support/redis.js';
import { parsePrometheusText, sampleValue } from '../support/prometheus.js';
import { postSignedEvent, startReceiver, subscriptionToADownReceiver, type Receiver } from '../support/webhook-receivers.js';

/**
 * A v2 event delivered by one gateway process and redelivered by the v2 service to the next one
 * (the first was killed before v2 saw its 2XX, or v2 simply retried) notifies the receiver once:
 * the journal, file or Redis, remembers delivered ids across a restart.
 */

const TOKEN = 'redelivery-token';
const gateways: GatewayProcess[] = [];
const receivers: Receiver[] = [];
let redis: RunningRedis | undefined;

afterAll(async () => {
  await Promise.all(gateways.map((g) => g.kill()));
  await Promise.all(receivers.map((r) => r.stop()));
  await redis?.close();
});

const event = (uuid: string) =>
  JSON.stringify({
    event: 'meeting.ended',
    event_ts: 1_700_000_000_000,
    payload: { account_id: 'a', object: { id: 123, uuid, host_id: 'h' } },
  });

async function post(gateway: GatewayProcess, uuid: string): Promise<void> {
  const response = await postSignedEvent(gateway.url, TOKEN, event(uuid));
  expect(response.status).toBe(200);
}

async function deliveries(gateway: GatewayProcess): Promise<number> {
  const text = await (await fetch(`${gateway.url}/metrics`)).text();
  return sampleValue(parsePrometheusText(text), 'v1gate_webhook_deliveries_total');
}

async function until(condition: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each([
  ['the file journal', false],
  ['the Redis journal', true],
])('%s', (_name, withRedis) => {
  it('notifies once when v2 redelivers an event to a restarted gateway', async () => {
    const subscription = await subscriptionToADownReceiver(TOKEN);
    const env: Record<string, string> = { ...subscription.env, V1_WEBHOOKS_BACKOFF_MS: '10' };
    if (withRedis) {
      redis ??= await startRedis();
      Object.assign(env, { REDIS_URL: redis.url, V1_WEBHOOKS_REDIS_PREFIX: `redelivery-${Date.now()}` });
    }
    const receiver = await startReceiver('strict', subscription.port);
    receivers.push(receiver);

    const first = await startGatewayProcess(env);
    gateways.push(first);
    await post(first, 'delivered-once');
    await receiver.waitFor(1);
    // Journaled as delivered (the counter moves only after the journal's done), then killed: no shutdown code runs.
    await until(async () => (await deliveries(first)) === 1);
    await first.kill();

    const second = await startGatewayProcess(env);
    gateways.push(second);
    await post(second, 'delivered-once');
    // A fresh event after the redelivery: once it arrives, the redelivery, queued before it, would have too.
    await post(second, 'a-new-one');
    await receiver.waitFor(2);
    await until(async () => (await deliveries(second)) === 1);
    expect(receiver.received.map((r) => r.body.uuid)).toEqual(['delivered-once', 'a-new-one']);
  }, 60_000);
});
