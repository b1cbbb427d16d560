import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';

/**
 * A huge v2 answer must not take the gateway's memory: the client stops reading at
 * UPSTREAM_MAX_BODY_BYTES (8 MiB by default), answers the v1 upstream error, and the process's
 * resident memory stays near where it was. Before the cap, one 100 MB answer took RSS from 84 to
 * 390 MB and was answered as a success `{}`, and a 600 MB one failed with ERR_STRING_TOO_LONG.
 * Measured on a real gateway process, as an operator would see it.
 */
const HUGE_BYTES = 100 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'x');

let upstream: Server;
/** What the upstream wrote, by what was asked: the v2 call, and the sandbox account list a gateway over this machine reads beside it. */
const bytesSent = { v2: 0, accountList: 0 };
let gateway: GatewayProcess;

beforeAll(async () => {
  // Every request is answered with a 100 MB JSON object, streamed as fast as the reader takes it
  // (made chunk by chunk: the test process never holds it either).
  upstream = createServer((request, response) => {
    request.resume();
    const counter = request.url?.startsWith('/sandbox/accounts') ? 'accountList' : 'v2';
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{"pad":"');
    let left = HUGE_BYTES;
    const pump = (): void => {
      while (left > 0) {
        left -= CHUNK.length;
        bytesSent[counter] += CHUNK.length;
        if (!response.write(CHUNK)) return void response.once('drain', pump);
      }
      response.end('"}');
    };
    response.on('close', () => (left = 0));
    pump();
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const { port } = upstream.address() as AddressInfo;
  gateway = await startGatewayProcess({
    V2_BASE_URL: `http://127.0.0.1:${port}/v2`,
    V1_RATE_LIMITS: 'off',
    V2_RATE_LIMITS: 'off',
    LOG_LEVEL: 'silent',
  });
});

afterAll(async () => {
  await gateway?.kill();
  upstream?.closeAllConnections();
  await new Promise((resolve) => upstream?.close(resolve));
});

/** Resident memory of the gateway process, in MB, from the kernel's own account. */
function rssMb(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(line![1]) / 1024;
}

/** One v1 call, one v2 call (GET /users/email). */
const checkEmail = (url: string) =>
  fetch(`${url}/v1/user/checkemail`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'api_key=k&api_secret=s&email=a%40b.c',
  }).then(async (r) => (await r.json()) as { error?: { code: number; message: string } });

describe('a 100 MB v2 answer', () => {
  it.runIf(process.platform === 'linux')(
    'is the v1 upstream error, read no further than the cap, and memory stays near its baseline',
    async () => {
      await checkEmail(gateway.url); // warm: the code paths of the call are loaded before the baseline
      const baseline = rssMb(gateway.pid);
      bytesSent.v2 = bytesSent.accountList = 0;
      for (let i = 0; i < 5; i++) {
        const answer = await checkEmail(gateway.url);
        expect(answer.error).toMatchObject({ code: 503, message: expect.stringMatching(/v2/i) });
      }
      // Five answers of 100 MB each were offered; the gateway stopped reading each after 8 MiB and
      // closed the connection. The upstream had written more by then, into the two sockets' kernel
      // buffers (about 24 MB a call on this loopback), but never the whole answer. The same holds
      // for the account list a gateway over a v2 of its own machine reads to find a pair's app
      // (read at most once a second, so one to five times here).
      expect(bytesSent.v2).toBeLessThan(5 * 50 * 1024 * 1024);
      expect(bytesSent.accountList).toBeLessThan(5 * 50 * 1024 * 1024);
      expect(rssMb(gateway.pid) - baseline).toBeLessThan(40);
    },
  );
});
