/**
 * `npm run bench:webhooks`: v1 notifications per second delivered to a fast receiver, and the
 * latency from a v2 event posted to /webhooks/v2 to its v1 notification arriving (p50/p99), side by
 * side with the floor: the same form POSTed straight to the receiver (no intake, journal or queue).
 * Options: --events N (default 2000), --concurrency N (events in flight, default 16).
 */
import { createServer } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { startGateway } from '../src/gateway.js';
import { SIGNATURE_HEADER, signatureHeader, TIMESTAMP_HEADER } from '../src/v2-contract/webhook-signature.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const EVENTS = arg('events', 2000);
const CONCURRENCY = arg('concurrency', 16);
const TOKEN = 'bench-webhook-token';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function startReceiver(onReceive: (uuid: string) => void): Promise<{ url: string; close(): void }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      onReceive(new URLSearchParams(body).get('uuid') ?? '');
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/hook`, close: () => server.close() };
}

async function run(name: string, send: (uuid: string) => Promise<void>, setReceiver: (fn: (uuid: string) => void) => void) {
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  let done!: () => void;
  const all = new Promise<void>((r) => (done = r));
  setReceiver((uuid) => {
    latencies.push(performance.now() - sentAt.get(uuid)!);
    if (latencies.length === EVENTS) done();
  });
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < EVENTS) {
        const uuid = `${name}-${next++}`;
        sentAt.set(uuid, performance.now());
        await send(uuid);
      }
    }),
  );
  await all;
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { name, perSecond: EVENTS / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

async function main(): Promise<void> {
  let onReceive: (uuid: string) => void = () => {};
  const receiver = await startReceiver((uuid) => onReceive(uuid));
  const dir = mkdtempSync(join(tmpdir(), 'v1gate-bench-webhooks-'));
  writeFileSync(join(dir, 'subs.json'), JSON.stringify([{ api_key: 'bench', url: receiver.url }]));
  const gateway = await startGateway(
    loadConfig({
      PORT: '0',
      SANDBOX_RATE_LIMITS: 'off',
      V1_RATE_LIMITS: 'off',
      V2_RATE_LIMITS: 'off',
      V1_WEBHOOKS_FILE: join(dir, 'subs.json'),
      V1_WEBHOOKS_JOURNAL: join(dir, 'journal'),
      V2_WEBHOOK_SECRET_TOKEN: TOKEN,
      V1_WEBHOOKS_ANY_PORT: '1',
    }),
  );
  const floor = await run(
    'floor',
    async (uuid) => {
      const response = await fetch(receiver.url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ id: '1', uuid, status: 'ENDED', host_id: 'h' }).toString(),
      });
      await response.body?.cancel();
    },
    (fn) => (onReceive = fn),
  );
  const gatewayRun = await run(
    'v1gate',
    async (uuid) => {
      const body = JSON.stringify({
        event: 'meeting.ended',
        event_ts: Date.now(),
        payload: { account_id: 'a', object: { id: 1, uuid, host_id: 'h' } },
      });
      const timestamp = String(Math.floor(Date.now() / 1000));
      const response = await fetch(`${gateway.url}/webhooks/v2`, {
        method: 'POST',
        // Signed as the v2 service signs events today: the intake verifies every one.
        headers: {
          'content-type': 'application/json',
          [TIMESTAMP_HEADER]: timestamp,
          [SIGNATURE_HEADER]: signatureHeader(TOKEN, timestamp, body),
        },
        body,
      });
      await response.body?.cancel();
    },
    (fn) => (onReceive = fn),
  );
  console.log(`${EVENTS} events, ${CONCURRENCY} in flight`);
  console.log('| path | notifications/s | p50 ms | p99 ms |');
  console.log('|---|---:|---:|---:|');
  for (const r of [floor, gatewayRun]) console.log(`| ${r.name} | ${r.perSecond.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} |`);
  console.log(
    `ratio v1gate/floor: ${(gatewayRun.perSecond / floor.perSecond).toFixed(2)}× throughput, p50 ${(gatewayRun.p50 / floor.p50).toFixed(1)}×`,
  );
  await gateway.close();
  receiver.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
