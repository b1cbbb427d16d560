import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { postSignedEvent, startReceiver, type Receiver } from '../support/webhook-receivers.js';

/**
 * v2 events posted to /webhooks/v2 reach real receiver processes in v1's exact form and by v1's
 * delivery rules. The 30 s deadline is scaled down (V1_WEBHOOKS_DEADLINE_MS) so the sleeper is quick.
 */

const TOKEN = 'v2-app-secret-token';
const ACCOUNT = 'acct-webhooks';
const receivers: Record<string, Receiver> = {};
let gateway: TestGateway;
let dir: string;

function event(name: string, id: number, uuid: string) {
  return { event: name, event_ts: Date.now(), payload: { account_id: ACCOUNT, object: { id, uuid, host_id: 'host-1', topic: 'ignored' } } };
}

async function postEvent(body: unknown, secretToken = TOKEN, at = Date.now()) {
  const response = await postSignedEvent(gateway.url, secretToken, JSON.stringify(body), at);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function until(check: () => boolean) {
  while (!check()) await new Promise((r) => setTimeout(r, 20));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'v1gate-webhooks-'));
  const modes = {
    strict: 'strict',
    typeContent: 'type-content',
    basic: 'basic:ops:s3cret',
    flaky: 'flaky:2',
    fail: 'fail',
    redirect: 'redirect',
    sleeper: 'sleep:4000',
  };
  for (const [name, mode] of Object.entries(modes)) receivers[name] = await startReceiver(mode);
  const subs = [
    { api_key: 'k-strict', url: `${receivers.strict!.url}?secret=abc`, account_id: ACCOUNT },
    { api_key: 'k-tc', url: receivers.typeContent!.url, format: 'type-content' },
    { api_key: 'k-basic', url: receivers.basic!.url, username: 'ops', password: 's3cret' },
    { api_key: 'k-flaky', url: receivers.flaky!.url },
    { api_key: 'k-fail', url: receivers.fail!.url },
    { api_key: 'k-redirect', url: receivers.redirect!.url },
    { api_key: 'k-sleep', url: receivers.sleeper!.url },
    { api_key: 'k-other', url: `${receivers.strict!.url}?other=1`, account_id: 'someone-else' },
  ];
  writeFileSync(join(dir, 'subs.json'), JSON.stringify(subs));
  gateway = await startTestGateway({
    V1_WEBHOOKS_FILE: join(dir, 'subs.json'),
    V1_WEBHOOKS_JOURNAL: join(dir, 'journal'),
    V2_WEBHOOK_SECRET_TOKEN: TOKEN,
    V1_WEBHOOKS_ANY_PORT: '1',
    V1_WEBHOOKS_DEADLINE_MS: '1000',
    V1_WEBHOOKS_BACKOFF_MS: '20',
  });
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all(Object.values(receivers).map((r) => r.stop()));
});

describe('v1 webhooks', () => {
  it('refuses a wrong signature, malformed and unknown events, and queues nothing', async () => {
    expect((await postEvent(event('meeting.started', 1, 'u'), 'another-app-secret')).status).toBe(401);
    expect((await postEvent({ event: 'meeting.started' })).status).toBe(400);
    expect((await postEvent(event('meeting.renamed', 1, 'u'))).status).toBe(422);
    expect(gateway.webhooks!.stats().journalDepth).toBe(0);
  });

  it('delivers each status in v1 form, in order, with retries and dead letters by v1 rules', async () => {
    const uuid = 'inst-uuid-1==';
    const sequence = ['meeting.started', 'meeting.participant_jbh_joined', 'meeting.ended', 'recording.completed'];
    for (const name of sequence) expect((await postEvent(event(name, 85_012_345, uuid))).status).toBe(200);

    await receivers.strict!.waitFor(4);
    // Only the subscription of this account: the other account's one heard nothing.
    expect(receivers.strict!.received.map((r) => r.url)).toEqual(Array(4).fill('/hook?secret=abc'));
    expect(receivers.strict!.received.map((r) => r.body)).toEqual(
      ['STARTED', 'JBH', 'ENDED', 'RECORDING_MEETING_COMPLETED'].map((status) => ({ id: '85012345', uuid, status, host_id: 'host-1' })),
    );
    expect(receivers.strict!.received[0]!.contentType).toBe('application/x-www-form-urlencoded');

    await receivers.typeContent!.waitFor(4);
    expect(receivers.typeContent!.received[0]!.body).toEqual({ type: 'STARTED', content: { id: '85012345', uuid, host_id: 'host-1' } });
    await receivers.basic!.waitFor(4);
    // Fails twice then succeeds: the first notification takes all 3 attempts and is delivered.
    await receivers.flaky!.waitFor(4);

    const webhooks = gateway.webhooks!;
    await until(() => webhooks.dispatcher.stats().deadLetters === 12);
    await webhooks.dispatcher.idle();
    const stats = webhooks.stats();
    // fail, redirect and sleeper: 4 each, dead after 3 attempts; flaky needed 2 retries.
    expect(stats.deadLetters).toBe(12);
    expect(stats.deliveries).toBe(16);
    expect(stats.retries).toBe(2 + 12 * 2);
    expect(stats.journalDepth).toBe(0);
    const journal = readFileSync(join(dir, 'journal'), 'utf8');
    expect(journal).toContain('HTTP 302');
    expect(journal).toContain('no answer within 1000 ms');
  });

  it('does not notify twice when v2 redelivers an event', async () => {
    const webhooks = gateway.webhooks!;
    const again = event('meeting.started', 85_012_346, 'inst-uuid-2==');
    expect((await postEvent(again)).body).toEqual({ accepted: true, notifications: 7 });
    // v2 sends it again later, signed anew: taken (200, so v2 stops), and nothing is notified twice.
    expect((await postEvent(again, TOKEN, Date.now() + 1_000)).body).toEqual({ accepted: true, notifications: 0 });
    await receivers.strict!.waitFor(5);
    await until(() => webhooks.stats().deadLetters === 15); // its 3 failing receivers, once each
    await webhooks.dispatcher.idle();
    expect(receivers.strict!.received).toHaveLength(5);
  });

  it('replays a dead letter with a fresh set of 3 attempts', async () => {
    const webhooks = gateway.webhooks!;
    const before = webhooks.stats();
    expect(await webhooks.dispatcher.replay('no-such-id')).toBe(false);
    const dead = await webhooks.dispatcher.deadLetters();
    expect(dead).toHaveLength(15);
    const failing = dead.find((job) => job.url === receivers.fail!.url)!;
    expect(failing.lastError).toBe('HTTP 500');
    expect(await webhooks.dispatcher.replay(failing.id)).toBe(true);
    await until(() => webhooks.stats().deadLetters === before.deadLetters + 1);
    expect(webhooks.stats().retries).toBe(before.retries + 2);
    expect(await webhooks.dispatcher.deadLetters()).toHaveLength(15);
  });

  it('npm run webhooks lists and replays the dead letters through the operator routes', async () => {
    const { execFile } = await import('node:child_process');
    const run = (...args: string[]) =>
      new Promise<string>((resolve, reject) =>
        execFile(
          'npm',
          ['run', '--silent', 'webhooks', '--', ...args],
          { env: { ...process.env, GATEWAY_URL: gateway.url, V2_WEBHOOK_SECRET_TOKEN: TOKEN } },
          (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolve(stdout)),
        ),
      );
    const listed = await run('list');
    expect(listed).toContain('15 dead letter(s)');
    expect(listed).not.toContain('s3cret');
    const id = /^([0-9a-f]{24}) /m.exec(listed)![1]!;
    const before = gateway.webhooks!.stats().deadLetters;
    expect(await run('replay', id)).toContain('replayed 1 dead letter(s)');
    await until(() => gateway.webhooks!.stats().deadLetters === before + 1);
    const refused = await fetch(`${gateway.url}/webhooks/dead-letters`, { headers: { authorization: 'nope' } });
    expect(refused.status).toBe(401);
  });
});
