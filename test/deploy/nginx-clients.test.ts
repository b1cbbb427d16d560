import { readFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { connect, type TLSSocket } from 'node:tls';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rememberSecret } from '../support/gateway.js';
import { hasNginx, shippedNginx, type RunningNginx } from '../support/nginx.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';
import { startRedis, type RunningRedis } from '../support/redis.js';
import { shippedSystemdEnv } from '../support/shipped-env.js';
import { NO_LIMITS } from '../support/v1-answers.js';

/**
 * The gateway run with the shipped settings (deploy/systemd/v1gate.env.example) behind the shipped
 * nginx (deploy/nginx/v1gate.conf), as an operator installs both on one machine. Two clients, at
 * 127.0.0.2 and 127.0.0.3 (the kernel routes all of 127/8 to this machine, so nginx sees two
 * addresses), each reach the private pages with their tokens, are seen by their own address in the
 * call lines, and get their own connection slots: nginx's per-client cap refuses one client's
 * request past it while the other is served, and the gateway takes nginx's connections for both.
 *
 * Changed from what ships, and why: this machine's port, Redis and v2 (the embedded sandbox, its
 * keys in place of the credential map); the connection caps scaled down together (the gateway's
 * 4096 to 16, nginx's per-client 1024 to 4: holding a thousand requests open proves nothing more);
 * and V1_BODY_TIMEOUT_MS raised, since the held requests are held by a body that pauses.
 */

const pair = { key: 'nginx-clients-key', secret: 'nginx-clients-secret-0123456789' };
const CLIENT_A = '127.0.0.2';
const CLIENT_B = '127.0.0.3';
const PER_CLIENT = 4;
const HOST = 'v1gate.example.com';

/** The gateway's accepted connections (ESTABLISHED, local port `port`), from the kernel's table. */
function establishedTo(port: number): number {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .filter((line) => {
      const fields = line.trim().split(/\s+/);
      return fields[1]?.endsWith(`:${hex}`) && fields[3] === '01';
    }).length;
}

describe.skipIf(!hasNginx)('the shipped settings behind the shipped nginx', () => {
  const env = shippedSystemdEnv();
  let redis: RunningRedis;
  let gateway: GatewayProcess;
  let nginx: RunningNginx;
  const held: TLSSocket[] = [];
  const agents: Agent[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    rememberSecret(env.STATUS_TOKEN!);
    rememberSecret(env.METRICS_TOKEN!);
    const { V2_BASE_URL: _v2, V2_CREDENTIALS_FILE: _map, V2_CREDENTIALS_ONLY: _only, ...shipped } = env;
    gateway = await startGatewayProcess({
      ...shipped,
      ...NO_LIMITS,
      PORT: '0',
      REDIS_URL: redis.url,
      SANDBOX_API_KEY: pair.key,
      SANDBOX_API_SECRET: pair.secret,
      V1_MAX_CONNECTIONS: '16',
      V1_MAX_CONNECTIONS_PER_ADDRESS: String(16 * (Number(env.V1_MAX_CONNECTIONS_PER_ADDRESS) / Number(env.V1_MAX_CONNECTIONS))),
      V1_BODY_TIMEOUT_MS: '60000',
    });
    nginx = await shippedNginx(gateway.url, [['limit_conn v1gate_per_client 1024;', `limit_conn v1gate_per_client ${PER_CLIENT};`]]);
    await nginx.start();
  }, 60_000);

  afterAll(async () => {
    for (const socket of held) socket.destroy();
    for (const agent of agents) await agent.close();
    await nginx?.stop();
    await gateway?.stop();
    await redis?.close();
  });

  /** A dispatcher whose connections come from `address`. */
  function from(address: string): Agent {
    const agent = new Agent({ localAddress: address, connect: { ca: nginx.cert, servername: 'localhost' } });
    agents.push(agent);
    return agent;
  }

  const callBody = (email: string) => new URLSearchParams({ api_key: pair.key, api_secret: pair.secret, email }).toString();

  async function v1Call(address: string, email: string): Promise<{ status: number; body: string }> {
    const answer = await request(`https://127.0.0.1:${nginx.https}/v1/user/getbyemail`, {
      dispatcher: from(address),
      method: 'POST',
      headers: { host: HOST, 'content-type': 'application/x-www-form-urlencoded' },
      body: callBody(email),
    });
    return { status: answer.statusCode, body: await answer.body.text() };
  }

  /** A v1 call from `address` whose body stops after its first byte: it holds one slot until finish(). */
  function heldCall(address: string): { finish(): Promise<string> } {
    const body = callBody('owner@sandbox.v1gate.local');
    const tcp = createConnection({ host: '127.0.0.1', port: nginx.https, localAddress: address });
    const socket = connect({ socket: tcp, ca: nginx.cert, servername: 'localhost' });
    held.push(socket);
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const ended = new Promise<string>((resolve) => socket.once('close', () => resolve(answer)));
    socket.write(
      `POST /v1/user/getbyemail HTTP/1.1\r\nHost: ${HOST}\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
        `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 1)}`,
    );
    return {
      finish: () => {
        socket.write(body.slice(1));
        return ended;
      },
    };
  }

  /** Wait until the gateway holds `count` connections from nginx (each held call passed on). */
  async function gatewayHolds(count: number): Promise<number> {
    const port = Number(new URL(gateway.url).port);
    for (let waited = 0; waited < 10_000 && establishedTo(port) < count; waited += 50) await new Promise((r) => setTimeout(r, 50));
    return establishedTo(port);
  }

  it('answers /status and /metrics to their tokens through nginx, on the name clients use', async () => {
    for (const [path, token] of [
      ['/status', env.STATUS_TOKEN],
      ['/metrics', env.METRICS_TOKEN],
    ] as const) {
      const answer = await request(`https://127.0.0.1:${nginx.https}${path}`, {
        dispatcher: from(CLIENT_A),
        headers: { host: HOST, authorization: `Bearer ${token}` },
      });
      await answer.body.dump();
      expect(answer.statusCode, path).toBe(200);
    }
  });

  it(
    'gives each client its own connection slots: one past its cap is refused by nginx, the other client is served, the gateway takes both',
    { timeout: 60_000 },
    async () => {
      const a = Array.from({ length: PER_CLIENT }, () => heldCall(CLIENT_A));
      // A's next call finds its client's slots full: nginx answers 503 and the gateway never sees it.
      // (Until nginx has read the held calls' headers, a call gets through: it is answered and frees its slot.)
      let refused: number | undefined;
      for (let tries = 0; tries < 100 && refused !== 503; tries++) refused = (await v1Call(CLIENT_A, 'owner@sandbox.v1gate.local')).status;
      expect(refused).toBe(503);
      // B's slots are its own: as many held calls again, every one passed on to the gateway, which
      // (its per-address cap at V1_MAX_CONNECTIONS) takes all of nginx's connections.
      // (nginx's idle keep-alive connections are counted too, but a held call takes an idle one first.)
      const b = Array.from({ length: PER_CLIENT }, () => heldCall(CLIENT_B));
      expect(await gatewayHolds(2 * PER_CLIENT)).toBeGreaterThanOrEqual(2 * PER_CLIENT);
      const answers = await Promise.all([...a, ...b].map((call) => call.finish()));
      for (const answer of answers) {
        expect(answer).toMatch(/^HTTP\/1\.1 200 /);
        expect(answer).toContain('"email":"owner@sandbox.v1gate.local"');
      }
      // A's slots are free again.
      expect((await v1Call(CLIENT_A, 'owner@sandbox.v1gate.local')).status).toBe(200);
    },
  );

  it('writes each call line with the client nginx names, and nginx as the peer', async () => {
    await v1Call(CLIENT_B, 'nobody-b@example.com');
    let lines: { client?: string; peer?: string; endpoint?: string }[] = [];
    for (let waited = 0; waited < 5_000; waited += 50) {
      lines = gateway
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{') && line.includes('"endpoint"'))
        .map((line) => JSON.parse(line) as { client?: string; peer?: string });
      if (lines.some((line) => line.client === CLIENT_B)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const clients = new Set(lines.map((line) => line.client));
    expect(clients).toEqual(new Set([CLIENT_A, CLIENT_B]));
    expect(new Set(lines.map((line) => line.peer))).toEqual(new Set(['127.0.0.1']));
  });
});
