import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { childrenOf } from '../support/close-wait.js';
import { startGatewayProcess, twoWorkersOverSandbox, type GatewayProcess } from '../support/process-gateway.js';

/**
 * A cluster loses a worker (the kernel's OOM killer, an operator's kill, a crash) while clients
 * keep it busy: new connections the primary hands to the workers, v1 calls whose rate-limit leases
 * the workers ask the primary for over IPC, scrapes of /metrics the primary merges. Every message
 * the primary sends to the dying worker may fail as its channel breaks, and a failure Node emits
 * as an 'error' event on a worker nobody listens to ended the primary, and the whole cluster with
 * it (found with /metrics: `metrics-floods.test.ts`). The primary must live, replace the worker and
 * serve on.
 */

const pair = { key: 'worker-loss-key', secret: 'worker-loss-secret-0123456789' };
const KILLS = 3;

let cluster: GatewayProcess;
let exits = 0;
beforeAll(async () => {
  // The v1 limits on, shared through the primary: every call's admission is an IPC question.
  const env = { ...twoWorkersOverSandbox(pair), V1_RATE_LIMITS: 'on', LOG_LEVEL: 'warn' };
  cluster = await startGatewayProcess(env, { startTimeoutMs: 60_000 });
  cluster.onExit(() => exits++);
}, 90_000);
afterAll(() => cluster?.kill());

/** Clients busy until `until` resolves: fresh connections, v1 calls and scrapes, errors counted, never thrown. */
function busy(until: Promise<unknown>): Promise<number> {
  let answered = 0;
  let stop = false;
  void until.then(() => (stop = true));
  const form = () => new URLSearchParams({ api_key: pair.key, api_secret: pair.secret });
  const kinds = [
    async () => (await request(`${cluster.url}/healthz`, { headers: { connection: 'close' } })).body.arrayBuffer(),
    () => fetch(`${cluster.url}/v1/user/list`, { method: 'POST', body: form() }),
    () => fetch(`${cluster.url}/metrics`),
  ];
  const client = async (kind: () => Promise<unknown>) => {
    while (!stop) {
      try {
        const answer = await kind();
        if (answer instanceof Response) await answer.arrayBuffer();
        answered++;
      } catch {
        // a connection the dying worker held: the client sees it end
      }
    }
  };
  return Promise.all(Array.from({ length: 24 }, (_, i) => client(kinds[i % kinds.length]!))).then(() => answered);
}

/** An owner's call answered by a worker, and which (`x-v1gate-worker`). */
async function ownerServed(): Promise<string> {
  const answer = await fetch(`${cluster.url}/v1/user/list`, {
    method: 'POST',
    body: new URLSearchParams({ api_key: pair.key, api_secret: pair.secret }),
  });
  expect(answer.status).toBe(200);
  // Its users, or v1's rate-limit error once the clients' calls have spent the key's bucket: a worker's answer either way.
  const body = (await answer.json()) as { users?: unknown[]; error?: { code: number } };
  expect(body.users ?? body.error?.code).toBeDefined();
  return answer.headers.get('x-v1gate-worker') ?? '';
}

/**
 * Waits until the worker forked in place of a killed one serves (an answer from a worker not seen
 * before): until then the one left serves alone, and killing it too would close the listening
 * socket, which a new worker opens again on a new port where PORT=0.
 */
async function replacementServing(seen: Set<string>): Promise<void> {
  await vi.waitFor(
    async () => {
      const worker = await ownerServed();
      expect(seen.has(worker), `worker ${worker} served before`).toBe(false);
      seen.add(worker);
    },
    { timeout: 60_000, interval: 100 },
  );
}

describe('a cluster (WORKERS=2) that loses a worker under load', () => {
  it(`${KILLS} times a worker killed mid-flood: the primary lives, forks a new one, and serves on`, async () => {
    const seen = new Set<string>();
    for (let answer = 0; answer < 10; answer++) seen.add(await ownerServed());
    for (let kill = 0; kill < KILLS; kill++) {
      const workers = childrenOf(cluster.pid);
      expect(workers).toHaveLength(2);
      let killed!: () => void;
      const done = new Promise<void>((resolve) => (killed = resolve));
      const load = busy(done.then(() => new Promise((resolve) => setTimeout(resolve, 1_000))));
      await new Promise((resolve) => setTimeout(resolve, 500));
      process.kill(workers[0]!, 'SIGKILL');
      killed();
      expect(await load).toBeGreaterThan(0);
      await vi.waitFor(() => expect(childrenOf(cluster.pid).filter((pid) => pid !== workers[0])).toHaveLength(2), { timeout: 30_000 });
      await replacementServing(seen);
    }
    expect(exits).toBe(0);
    expect(cluster.output()).not.toMatch(/EPIPE|ERR_IPC_CHANNEL_CLOSED|Unhandled 'error' event/);
  }, 180_000);
});
