import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parsePrometheusText } from '../support/prometheus.js';
import { childrenOf } from '../support/close-wait.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { startGatewayProcess, twoWorkersOverSandbox, type GatewayProcess } from '../support/process-gateway.js';
import { failOnUnhandled } from '../support/unhandled.js';

/**
 * /metrics is open to anyone where METRICS_TOKEN is not set (a scraper reaches it by pod address).
 * In a cluster each scrape is a question from its worker to the primary, which asks every worker
 * for its registry and answers with the merged page, over the channels the workers' rate-limit
 * leases travel too. Two findings:
 * - a worker that died (killed, or drained at SIGTERM) while the primary was making an answer for
 *   it ended the primary: the answer's send failed with EPIPE, which Node emits as an 'error' event
 *   on the worker, and nothing listens to it. A flood of scrapes keeps such answers always pending;
 *   the whole cluster went down with the one worker (src/shared/ipc-rpc.ts now takes the failure);
 * - every scrape made its own merge and carried a whole page over IPC: 64 clients scraping as fast
 *   as they could took an owner's call from 12 ms to 3.6 s at the median on WORKERS=2 (as many
 *   asking /healthz: 0.5 s). The scrapes that come while a merge is made now share it (the worker's
 *   question and the primary's merge, one at a time each); a scrape asked after another's answer
 *   still gets one of its own.
 */

failOnUnhandled();

const CLIENTS = 64;
const ROUNDS = 10;

/** `CLIENTS` scrapes at once, `ROUNDS` times: every answer a whole Prometheus page. */
async function flood(origin: string): Promise<number> {
  let scrapes = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const pages = await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        const answer = await fetch(`${origin}/metrics`);
        expect(answer.status).toBe(200);
        return answer.text();
      }),
    );
    for (const page of pages) expect(parsePrometheusText(page).length).toBeGreaterThan(10);
    scrapes += pages.length;
  }
  return scrapes;
}

describe('/metrics on one process', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw?.close());

  it('a scrape after another’s answer renders anew: a call in between is counted', async () => {
    const callsOf = async () =>
      parsePrometheusText(await (await fetch(`${gw.url}/metrics`)).text())
        .filter((sample) => sample.name === 'v1gate_v1_calls_total')
        .reduce((sum, sample) => sum + sample.value, 0);
    const before = await callsOf();
    await gw.v1('/user/list', {});
    expect(await callsOf()).toBe(before + 1);
  });
});

/** Bytes a process has written (to its sockets, pipes and IPC channels), from /proc. */
const writtenBy = (pid: number): number => Number(/^wchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))![1]);

describe('a flood of /metrics on a cluster (WORKERS=2)', () => {
  const pair = { key: 'metrics-flood-key', secret: 'metrics-flood-secret-0123456789' };
  let cluster: GatewayProcess;
  let exits = 0;
  beforeAll(async () => {
    cluster = await startGatewayProcess({ ...twoWorkersOverSandbox(pair), LOG_LEVEL: 'warn' }, { startTimeoutMs: 60_000 });
    cluster.onExit(() => exits++);
  }, 90_000);
  afterAll(() => cluster?.kill());

  it(`${CLIENTS} scrapes at once, ${ROUNDS} times: the primary sends a merged page for a fraction of them`, async () => {
    const page = await (await fetch(`${cluster.url}/metrics`)).text();
    const before = writtenBy(cluster.pid);
    const scrapes = await flood(cluster.url);
    const written = writtenBy(cluster.pid) - before;
    // The primary answers each worker's question with the whole merged page: one page per scrape
    // when every scrape asked on its own, one per merge shared by the scrapes that came meanwhile.
    expect(written).toBeLessThan((scrapes * page.length) / 4);
    const samples = parsePrometheusText(await (await fetch(`${cluster.url}/metrics`)).text());
    expect(samples.filter((s) => s.name === 'v1gate_worker_deaths_total').reduce((sum, s) => sum + s.value, 0)).toBe(0);
    expect(exits).toBe(0);
  }, 120_000);

  it('a worker killed while its scrapes wait on the primary: the primary lives and replaces it, nothing else ends', async () => {
    const [victim] = childrenOf(cluster.pid);
    const scraping = flood(cluster.url).catch(() => 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(victim!, 'SIGKILL');
    await scraping;
    // The primary forks a new worker; the cluster answers a scrape and an owner's call once it serves.
    await vi.waitFor(() => expect(childrenOf(cluster.pid).filter((pid) => pid !== victim)).toHaveLength(2), { timeout: 30_000 });
    await vi.waitFor(
      async () => {
        const answer = await fetch(`${cluster.url}/v1/user/list`, {
          method: 'POST',
          body: new URLSearchParams({ api_key: pair.key, api_secret: pair.secret }),
        });
        expect(answer.status).toBe(200);
        expect(((await answer.json()) as { users?: unknown[] }).users).toBeDefined();
      },
      { timeout: 30_000, interval: 200 },
    );
    await flood(cluster.url);
    expect(exits).toBe(0);
    expect(cluster.output()).not.toMatch(/EPIPE|ERR_IPC_CHANNEL_CLOSED|Unhandled 'error' event/);
  }, 120_000);

  it('SIGTERM while scrapes wait on the primary: every worker drains, the primary exits 0 with no trace', async () => {
    let code: number | null | undefined;
    cluster.onExit((exit) => (code = exit));
    const scraping = flood(cluster.url).catch(() => 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    cluster.signal('SIGTERM');
    await scraping;
    await vi.waitFor(() => expect(code).toBe(0), { timeout: 30_000, interval: 100 });
    expect(cluster.output()).not.toMatch(/EPIPE|ERR_IPC_CHANNEL_CLOSED|Unhandled 'error' event/);
  }, 120_000);
});
