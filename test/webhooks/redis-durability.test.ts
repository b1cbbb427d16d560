import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';
import { startRedis, type RunningRedis } from '../support/redis.js';
import { postSignedEvent, startReceiver, subscriptionToADownReceiver, type Receiver } from '../support/webhook-receivers.js';

/**
 * Nothing acknowledged is lost with Redis and two gateway processes: events reach process A's
 * intake while the receiver is down, process B (same Redis, same prefix) runs beside it without
 * taking A's jobs, A is SIGKILLed holding them, and B claims them once A's consumer has been idle
 * long enough, attempts kept, and delivers every one to the receiver, back up. At-least-once is the contract; duplicates are
 * counted and, on this path, none is expected.
 */

const TOKEN = 'redis-durability-token';
const gateways: GatewayProcess[] = [];
let receiver: Receiver | undefined;
let redis: RunningRedis | undefined;

afterAll(async () => {
  await Promise.all(gateways.map((g) => g.kill()));
  await receiver?.stop();
  await redis?.close();
});

it("a SIGKILLed process's pending notifications are claimed and delivered by the other one", async () => {
  redis = await startRedis();
  const subscription = await subscriptionToADownReceiver(TOKEN);
  const port = subscription.port;
  const env = {
    // With REDIS_URL the journal is in Redis: the file journal it names must stay unused.
    ...subscription.env,
    REDIS_URL: redis.url,
    V1_WEBHOOKS_REDIS_PREFIX: 'durable',
    V1_WEBHOOKS_CLAIM_IDLE_MS: '2000',
  };

  // Direct: a SIGKILL must end the gateway itself, not only a launcher in front of it.
  // A: a backoff far longer than the test, so after one refused attempt its jobs wait, pending.
  const a = await startGatewayProcess({ ...env, V1_WEBHOOKS_BACKOFF_MS: '3600000' });
  gateways.push(a);
  const uuids = Array.from({ length: 20 }, (_, i) => `uuid-${i}`);
  const post = (uuid: string, at?: number) =>
    postSignedEvent(
      a.url,
      TOKEN,
      JSON.stringify({ event: 'meeting.ended', event_ts: 1, payload: { account_id: 'a', object: { id: 123, uuid, host_id: 'h' } } }),
      at,
    );
  for (const uuid of uuids) expect((await post(uuid)).status).toBe(200);
  // v2 redelivering an event already journaled (signed anew, a second later) adds nothing.
  expect((await post(uuids[0]!, Date.now() + 1_000)).status).toBe(200);

  // Every job is journaled in Redis before the 200s and, with only A running, held by A's consumer.
  const admin = new Redis(redis.url);
  try {
    // Generous: a loaded machine may take seconds to get there.
    const until = async (condition: () => Promise<boolean>) => {
      const deadline = Date.now() + 60_000;
      while (!(await condition())) {
        if (Date.now() > deadline) throw new Error('condition not met in time');
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    expect(await admin.xlen('durable:stream')).toBe(uuids.length);
    await until(async () => ((await admin.xpending('durable:stream', 'deliverers')) as [number])[0] === uuids.length);

    // B joins while A lives (a short backoff: it would spend a job's last attempts quickly).
    // A's heartbeat keeps its jobs: once B reads the stream, and past the claim idle time after
    // that (B tries a claim every third of it), B still holds none of them.
    const b = await startGatewayProcess({ ...env, V1_WEBHOOKS_BACKOFF_MS: '10' });
    gateways.push(b);
    const consumers = async () => (await admin.xinfo('CONSUMERS', 'durable:stream', 'deliverers')) as Array<Array<string | number>>;
    await until(async () => (await consumers()).length === 2);
    await new Promise((r) => setTimeout(r, 3_000));
    expect((await consumers()).map((c) => c[3]).sort()).toEqual([0, uuids.length]);

    // A dies with every job pending; the receiver is up before A's consumer has been idle
    // long enough, then B claims A's jobs (attempt counts kept) and delivers them.
    await a.kill();
    receiver = await startReceiver('strict', port);
    await receiver.waitFor(uuids.length);
    await until(async () => (await admin.xlen('durable:stream')) === 0);
    expect(b.output()).not.toContain('dead-lettered');
    // Some time for a duplicate to show up, were there one.
    await new Promise((r) => setTimeout(r, 1_500));
    const got = receiver.received.map((r) => r.body.uuid as string);
    expect([...new Set(got)].sort()).toEqual([...uuids].sort());
    const duplicates = got.length - new Set(got).size;
    expect(duplicates).toBe(0);
    expect(await admin.scard('durable:dead')).toBe(0);
  } finally {
    await admin.quit();
  }
}, 180_000);
