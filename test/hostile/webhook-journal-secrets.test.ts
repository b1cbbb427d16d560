import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rememberSecret, startTestGateway, type TestGateway } from '../support/gateway.js';
import { startRedis, type RunningRedis } from '../support/redis.js';
import { postSignedEvent, startReceiver, type Receiver } from '../support/webhook-receivers.js';

/**
 * The webhook journal (the file, or Redis) keeps a reference to each notification's subscription,
 * never the receiver's credentials: no `?secret=` of its URL, no password, no `Authorization`
 * made of them. Delivery, a retry and a dead letter's replay look the subscription up and send
 * them. Real receiver processes (one needing Basic credentials, one failing until a replay), a
 * real gateway, a real redis-server; the journal is read as it is on disk and in Redis.
 */

const TOKEN = 'v2-app-secret-token';
const secret = (name: string) => {
  const value = `${name}-${randomBytes(12).toString('hex')}`;
  rememberSecret(value);
  return value;
};
const QUERY_SECRET = secret('query');
const PASSWORD = secret('password');
const FLAKY_QUERY_SECRET = secret('flaky-query');
const FLAKY_PASSWORD = secret('flaky-password');
/** Every form a credential could be journaled in: as given, and as the Authorization header carries it. */
const CREDENTIALS = [
  QUERY_SECRET,
  PASSWORD,
  FLAKY_QUERY_SECRET,
  FLAKY_PASSWORD,
  Buffer.from(`ops:${PASSWORD}`).toString('base64'),
  Buffer.from(`flaky:${FLAKY_PASSWORD}`).toString('base64'),
];

let redis: RunningRedis;
let basic: Receiver;
let flaky: Receiver;
const gateways: TestGateway[] = [];
const receivers: Receiver[] = [];

beforeAll(async () => {
  redis = await startRedis();
}, 60_000);

afterAll(async () => {
  await Promise.all(gateways.map((gateway) => gateway.close()));
  await Promise.all(receivers.map((receiver) => receiver.stop()));
  await redis?.close();
});

async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** A gateway delivering to two new receivers, with its journal where `env` says. */
async function start(env: Record<string, string>): Promise<{ gateway: TestGateway; journal: string }> {
  [basic, flaky] = await Promise.all([startReceiver(`basic:ops:${PASSWORD}`), startReceiver('flaky:3')]);
  receivers.push(basic, flaky);
  const dir = mkdtempSync(join(tmpdir(), 'v1gate-journal-secrets-'));
  const subscriptions = [
    { api_key: 'k-basic', url: `${basic.url}?secret=${QUERY_SECRET}`, username: 'ops', password: PASSWORD },
    { api_key: 'k-flaky', url: `${flaky.url}?secret=${FLAKY_QUERY_SECRET}`, username: 'flaky', password: FLAKY_PASSWORD },
  ];
  writeFileSync(join(dir, 'subscriptions.json'), JSON.stringify(subscriptions));
  const gateway = await startTestGateway({
    V1_WEBHOOKS_FILE: join(dir, 'subscriptions.json'),
    V1_WEBHOOKS_JOURNAL: join(dir, 'journal'),
    V2_WEBHOOK_SECRET_TOKEN: TOKEN,
    V1_WEBHOOKS_ANY_PORT: '1',
    V1_WEBHOOKS_BACKOFF_MS: '20',
    ...env,
  });
  gateways.push(gateway);
  return { gateway, journal: join(dir, 'journal') };
}

/**
 * One event to both receivers: the Basic one delivered at once; the flaky one failing its three
 * attempts (a dead letter), then replayed and delivered. Each delivery reaches its receiver with
 * the URL's secret (and the Basic receiver refuses one without its credentials).
 */
async function deliverAndReplay(gateway: TestGateway, meetingId: number): Promise<void> {
  const event = {
    event: 'meeting.started',
    event_ts: Date.now(),
    payload: { account_id: 'acct', object: { id: meetingId, uuid: `u-${meetingId}`, host_id: 'h' } },
  };
  expect((await postSignedEvent(gateway.url, TOKEN, JSON.stringify(event))).status).toBe(200);
  await basic.waitFor(1);
  expect(basic.received.at(-1)!.url).toBe(`/hook?secret=${QUERY_SECRET}`);

  const webhooks = gateway.webhooks!;
  await until(async () => (await webhooks.dispatcher.deadLetters()).length === 1);
  const [dead] = await webhooks.dispatcher.deadLetters();
  expect(dead!.lastError).toBe('HTTP 500');
  expect(await webhooks.dispatcher.replay(dead!.id)).toBe(true);
  await flaky.waitFor(1);
  expect(flaky.received.at(-1)!.url).toBe(`/hook?secret=${FLAKY_QUERY_SECRET}`);
  expect(flaky.received.at(-1)!.body).toEqual({ id: String(meetingId), uuid: `u-${meetingId}`, status: 'STARTED', host_id: 'h' });
  await webhooks.dispatcher.idle();
}

function withoutCredentials(text: string, where: string): void {
  for (const credential of CREDENTIALS) expect(text.includes(credential), `${where} holds ${credential}`).toBe(false);
}

describe('the webhook journal', { timeout: 120_000 }, () => {
  it('on disk: no line holds a receiver’s credentials, and the replay still sends them', async () => {
    const { gateway, journal } = await start({});
    await deliverAndReplay(gateway, 85_000_001);
    const lines = readFileSync(journal, 'utf8').trim().split('\n');
    expect(lines.length).toBeGreaterThan(5); // two adds, three attempts, a dead letter, a revival, two deliveries
    for (const line of lines) withoutCredentials(line, 'a journal line');
    expect(lines.filter((line) => line.includes('"subscription"'))).toHaveLength(2);
  });

  it('in Redis: no key or stream entry holds them, and the replay still sends them', async () => {
    const { gateway } = await start({ REDIS_URL: redis.url, V1_WEBHOOKS_REDIS_PREFIX: 'journal-secrets' });
    await deliverAndReplay(gateway, 85_000_002);
    const client = new Redis(redis.url);
    try {
      const keys = await client.keys('journal-secrets*');
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) withoutCredentials(JSON.stringify(await valueOf(client, key)), `the Redis key ${key}`);
    } finally {
      client.disconnect();
    }
  });
});

/** A key's whole value, whatever its type. */
async function valueOf(client: Redis, key: string): Promise<unknown> {
  const type = await client.type(key);
  if (type === 'string') return client.get(key);
  if (type === 'hash') return client.hgetall(key);
  if (type === 'stream') return client.xrange(key, '-', '+');
  if (type === 'set') return client.smembers(key);
  if (type === 'zset') return client.zrange(key, 0, -1);
  if (type === 'list') return client.lrange(key, 0, -1);
  throw new Error(`${key}: a ${type}, not read here`);
}
