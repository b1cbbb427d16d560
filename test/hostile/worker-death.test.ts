import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { childrenOf, closeWaitOf } from '../support/close-wait.js';
import { startGatewayProcess, twoWorkersOverSandbox, type GatewayProcess } from '../support/process-gateway.js';

/**
 * In a cluster, the primary accepts each connection and hands it to a worker; it closes its own
 * copy only when the worker says it took it. A worker that dies in between (killed, or ended by a
 * crash) must not leave that copy open in the primary: the client would wait forever, and the
 * socket sit in CLOSE-WAIT once the client gives up. A worker is stopped (it can take nothing),
 * connections arrive, then it is killed: every client gets an answer or a close, the primary holds
 * no CLOSE-WAIT, the death is counted, and the owner's calls are answered throughout.
 */

const pair = { key: 'worker-death-key', secret: 'worker-death-secret-0123456789abcd' };
const CONNECTIONS = 12;

/** A request on a connection of its own: what came back (an answer's first bytes, or nothing before the close). */
function requestAlone(origin: string): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.once('close', () => resolve(received));
    socket.write(
      `POST /v1/user/list HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${form().length}\r\n\r\n${form()}`,
    );
  });
}

const form = () => new URLSearchParams({ api_key: pair.key, api_secret: pair.secret }).toString();

async function ownerCall(origin: string): Promise<number> {
  const answer = await fetch(`${origin}/v1/user/list`, {
    method: 'POST',
    body: new URLSearchParams({ api_key: pair.key, api_secret: pair.secret }),
  });
  await answer.arrayBuffer();
  return answer.status;
}

describe('a worker killed with connections handed to it (WORKERS=2)', () => {
  let gateway: GatewayProcess;
  let exits = 0;

  beforeAll(async () => {
    gateway = await startGatewayProcess(
      {
        ...twoWorkersOverSandbox(pair),
        LOG_LEVEL: 'warn',
      },
      { startTimeoutMs: 60_000 },
    );
    gateway.onExit(() => exits++);
  }, 90_000);
  afterAll(() => gateway?.kill());

  it('every client is answered or closed, the primary keeps no CLOSE-WAIT, the death is counted', async () => {
    const workers = childrenOf(gateway.pid);
    expect(workers).toHaveLength(2);
    const victim = workers[0]!;
    // Stopped, the worker takes no connection: the one handed to it stays handed.
    process.kill(victim, 'SIGSTOP');
    const clients = Array.from({ length: CONNECTIONS }, () => requestAlone(gateway.url));
    // The other worker answers the rest meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    process.kill(victim, 'SIGKILL');
    const received = await Promise.all(clients);
    const answered = received.filter((text) => text.startsWith('HTTP/1.1 200')).length;
    const closed = received.filter((text) => text === '').length;
    expect(answered + closed).toBe(CONNECTIONS);
    expect(answered).toBeGreaterThan(0);
    for (let call = 0; call < 10; call++) expect(await ownerCall(gateway.url)).toBe(200);
    expect(closeWaitOf(gateway.pid)).toBe(0);
    expect(exits).toBe(0);
    const metrics = await (await fetch(`${gateway.url}/metrics`)).text();
    expect(metrics).toMatch(/v1gate_worker_deaths_total\{cause="signal"\} 1\b/);
    expect(metrics).toMatch(/v1gate_worker_abandoned_connections_total [1-9]/);
    // The primary's log line is written asynchronously: it may come a moment after the metric.
    await vi.waitFor(() => expect(gateway.output()).toMatch(/worker exited \(signal SIGKILL\); starting another/), { timeout: 10_000 });
  }, 60_000);
});

describe('a worker that dies of an uncaught exception while it serves (WORKERS=2)', () => {
  const SECRET_IN_QUERY = 'query-secret-0123456789abcdef';
  let gateway: GatewayProcess;

  beforeAll(async () => {
    gateway = await startGatewayProcess(
      {
        ...twoWorkersOverSandbox(pair),
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
        NODE_OPTIONS: `--import ${fileURLToPath(new URL('./fixtures/crash-while-serving.mjs', import.meta.url))}`,
      },
      { startTimeoutMs: 60_000 },
    );
  }, 90_000);
  afterAll(() => gateway?.kill());

  it("is logged by the primary with the route it was serving, the query's secret left out", async () => {
    const { hostname, port } = new URL(gateway.url);
    const socket = connect(Number(port), hostname);
    socket.on('error', () => {});
    const closed = new Promise((resolve) => socket.once('close', resolve));
    // Half a body: the request is still being served when the worker dies.
    socket.write(
      `POST /v1/user/get?api_secret=${SECRET_IN_QUERY} HTTP/1.1\r\nHost: x\r\nX-Crash-After-Ms: 300\r\n` +
        `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\napi_key=${pair.key}`,
    );
    await closed;
    const death = await vi.waitFor(
      () => {
        const line = gateway
          .output()
          .split('\n')
          .filter((text) => text.startsWith('{'))
          .map((text) => JSON.parse(text) as Record<string, unknown>)
          .find((entry) => entry.msg === 'worker exited (code 1); starting another');
        expect(line).toBeDefined();
        return line!;
      },
      { timeout: 10_000 },
    );
    expect(death.serving).toEqual(['POST /v1/user/get']);
    expect(death.error).toBe('Error: crashed on purpose while serving');
    expect(gateway.output()).not.toContain(SECRET_IN_QUERY);
    // The cluster serves on: the owner's calls are answered.
    for (let call = 0; call < 5; call++) expect(await ownerCall(gateway.url)).toBe(200);
  }, 60_000);
});
