import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { SIGNATURE_HEADER, signatureHeader, TIMESTAMP_HEADER } from '../../src/v2-contract/webhook-signature.js';

/** A webhook receiver child process (test/support/webhook-receiver.mjs) and what it accepted. */
export interface Receiver {
  url: string;
  port: number;
  /** `headers`: in the v2 modes, the signature, timestamp and authorization headers as sent. */
  received: Array<{ url: string; body: Record<string, unknown>; contentType: string; headers?: Record<string, string | undefined> }>;
  /** Resolves once `count` posts have been accepted. */
  waitFor(count: number): Promise<void>;
  stop(): Promise<void>;
}

const SCRIPT = fileURLToPath(new URL('./webhook-receiver.mjs', import.meta.url));

export function startReceiver(mode: string, port = 0, path = '/hook'): Promise<Receiver> {
  const child: ChildProcess = spawn(process.execPath, [SCRIPT, mode, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const received: Receiver['received'] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`receiver ${mode} exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const listening = /^listening (\d+)$/.exec(line);
      if (listening) {
        const p = Number(listening[1]);
        resolve({
          url: `http://127.0.0.1:${p}${path}`,
          port: p,
          received,
          waitFor: (count) => (received.length >= count ? Promise.resolve() : new Promise((r) => waiters.push({ count, resolve: r }))),
          stop: () =>
            new Promise((r) => {
              if (child.exitCode !== null) return r();
              child.removeAllListeners('exit');
              child.once('exit', () => r());
              child.kill('SIGKILL');
            }),
        });
        return;
      }
      received.push(JSON.parse(line));
      for (const w of waiters.filter((w) => received.length >= w.count)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    });
  });
}

/** The two headers the service signs an event with today: with `secretToken`, sent at `at` (ms since the epoch). */
export function signatureHeaders(secretToken: string, body: string, at = Date.now()): Record<string, string> {
  const timestamp = String(Math.floor(at / 1000));
  return { [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: signatureHeader(secretToken, timestamp, body) };
}

/** The headers of a v2 event as the service sends it today: JSON, signed. */
export function signedHeaders(secretToken: string, body: string, at = Date.now()): Record<string, string> {
  return { 'content-type': 'application/json', ...signatureHeaders(secretToken, body, at) };
}

/**
 * The signature headers of a request whose body never arrives in full (slow or oversized bodies):
 * dated now, so the intake goes on to read the body, which it must before it can check the signature.
 */
export function freshSignatureHeaders(): Record<string, string> {
  return { [TIMESTAMP_HEADER]: String(Math.floor(Date.now() / 1000)), [SIGNATURE_HEADER]: `v0=${'0'.repeat(64)}` };
}

/** POSTs a v2 event to a gateway's intake, signed as the service signs it (at `at`: a redelivery is signed at its own time). */
export function postSignedEvent(gatewayUrl: string, secretToken: string, body: string, at = Date.now()): Promise<Response> {
  return fetch(`${gatewayUrl}/webhooks/v2`, { method: 'POST', headers: signedHeaders(secretToken, body, at), body });
}

/**
 * A subscription whose receiver is down: a free port (probed, then closed) that a later
 * `startReceiver(mode, port)` brings up, and the gateway settings that subscribe api_key `k` to it.
 */
export async function subscriptionToADownReceiver(token: string): Promise<{ port: number; env: Record<string, string> }> {
  const dir = mkdtempSync(join(tmpdir(), 'v1gate-durable-'));
  const probe = await startReceiver('strict');
  const port = probe.port;
  await probe.stop();
  writeFileSync(join(dir, 'subs.json'), JSON.stringify([{ api_key: 'k', url: `http://127.0.0.1:${port}/hook` }]));
  return {
    port,
    env: {
      V1_WEBHOOKS_FILE: join(dir, 'subs.json'),
      V1_WEBHOOKS_JOURNAL: join(dir, 'journal'),
      V2_WEBHOOK_SECRET_TOKEN: token,
      V1_WEBHOOKS_ANY_PORT: '1',
    },
  };
}
