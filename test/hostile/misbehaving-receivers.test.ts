import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFaultUpstream, type Fault, type FaultUpstream } from '../support/fault-upstream.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { noCloseWait } from '../support/v2-faults.js';
import { postSignedEvent, startReceiver, type Receiver } from '../support/webhook-receivers.js';

/**
 * A v1 webhook receiver that misbehaves (test/support/fault-upstream.ts in front of a real receiver
 * process): a reset before any answer and mid-headers, a hang,
 * bytes that are no HTTP, error statuses and an HTML error page. Each fault meets a notification's
 * first two attempts: the intake answers v2 all along, the journal keeps the notification and the
 * third attempt delivers it, no dead letter, no connection left in CLOSE-WAIT. The 500, the 302
 * and an answer past the deadline, to dead letter, are `test/webhooks/delivery.test.ts`'s. A 2XX head
 * then a reset mid-body is a delivery, as v1 counts it: the receiver said yes.
 */
const TOKEN = 'misbehaving-receivers-token';
const ACCOUNT = 'acct-misbehaving';

const RECEIVER_FAULTS: readonly (readonly [string, Fault])[] = [
  ['a reset before any answer', { kind: 'reset' }],
  ['a reset mid-headers', { kind: 'reset-mid-headers' }],
  ['a hang', { kind: 'hang' }],
  ['bytes that are no HTTP', { kind: 'garbage' }],
  ...[500, 502, 503, 504].map((status) => [`HTTP ${status}`, { kind: 'answer', status, body: 'no' }] as const),
  ['an HTML error page', { kind: 'answer', status: 502, body: '<html>Bad gateway</html>', headers: { 'content-type': 'text/html' } }],
];

let receiver: Receiver;
let faults: FaultUpstream;
let gateway: TestGateway;
beforeAll(async () => {
  receiver = await startReceiver('strict');
  faults = await startFaultUpstream(receiver.url);
  const dir = mkdtempSync(join(tmpdir(), 'v1gate-misbehaving-receivers-'));
  writeFileSync(join(dir, 'subs.json'), JSON.stringify([{ api_key: 'k-faulty', url: faults.url, account_id: ACCOUNT }]));
  gateway = await startTestGateway({
    V1_WEBHOOKS_FILE: join(dir, 'subs.json'),
    V1_WEBHOOKS_JOURNAL: join(dir, 'journal'),
    V2_WEBHOOK_SECRET_TOKEN: TOKEN,
    V1_WEBHOOKS_ANY_PORT: '1',
    V1_WEBHOOKS_DEADLINE_MS: '1000',
    // Long enough that a notification between its attempts is seen waiting in the journal.
    V1_WEBHOOKS_BACKOFF_MS: '200',
  });
}, 60_000);
afterAll(async () => {
  await gateway?.close();
  await faults?.close();
  await receiver?.stop();
});

let meeting = 86_000_000;
async function postEvent(): Promise<{ status: number; id: string }> {
  const id = ++meeting;
  const body = {
    event: 'meeting.started',
    event_ts: Date.now(),
    payload: { account_id: ACCOUNT, object: { id, uuid: `u${id}==`, host_id: 'h' } },
  };
  const response = await postSignedEvent(gateway.url, TOKEN, JSON.stringify(body));
  await response.arrayBuffer();
  return { status: response.status, id: String(id) };
}

describe('a v1 receiver that misbehaves', { timeout: 60_000 }, () => {
  it.each(RECEIVER_FAULTS)(
    '%s: the intake answers, the journal keeps the notification, the retry delivers it, no CLOSE-WAIT',
    async (_name, fault) => {
      const webhooks = gateway.webhooks!;
      const before = webhooks.stats();
      faults.seen.length = 0;
      faults.rules.length = 0;
      faults.rules.push({ path: /^$/, fault, times: 2 });
      const first = await postEvent();
      expect(first.status).toBe(200);
      // While the receiver misbehaves, the notification waits in the journal and the intake takes the next event.
      await vi.waitFor(() => expect(faults.seen.filter((seen) => seen.fault === fault.kind).length).toBeGreaterThan(0), {
        timeout: 10_000,
      });
      expect(webhooks.stats().journalDepth).toBeGreaterThan(0);
      const second = await postEvent();
      expect(second.status).toBe(200);
      const delivered = () => new Set(receiver.received.map((r) => r.body.id));
      await vi.waitFor(() => expect([first.id, second.id].every((id) => delivered().has(id))).toBe(true), { timeout: 20_000 });
      await webhooks.dispatcher.idle();
      const after = webhooks.stats();
      expect(faults.seen.filter((seen) => seen.fault === fault.kind)).toHaveLength(2);
      expect(after.retries - before.retries).toBe(2);
      expect(after.deadLetters).toBe(before.deadLetters);
      expect(after.journalDepth).toBe(0);
      expect(await noCloseWait()).toBe(0);
    },
  );
});

describe('a v1 receiver that answers 2XX and resets in its body', () => {
  it('has taken the notification (v1’s rule: a 2XX head in time): delivered once, no retry, no CLOSE-WAIT', async () => {
    const webhooks = gateway.webhooks!;
    const before = webhooks.stats();
    faults.seen.length = 0;
    faults.rules.length = 0;
    faults.rules.push({ path: /^$/, fault: { kind: 'reset-after-apply' } });
    const event = await postEvent();
    expect(event.status).toBe(200);
    await vi.waitFor(() => expect(receiver.received.filter((r) => r.body.id === event.id)).toHaveLength(1), { timeout: 10_000 });
    await webhooks.dispatcher.idle();
    expect(faults.seen.map((seen) => seen.fault)).toEqual(['reset-after-apply']);
    expect(webhooks.stats()).toMatchObject({ retries: before.retries, deadLetters: before.deadLetters, journalDepth: 0 });
    faults.rules.length = 0;
    expect(await noCloseWait()).toBe(0);
  });
});
