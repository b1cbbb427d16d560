import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { KEEP_ALIVE_IDLE_MS } from '../../src/http/server.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';
import { memoryOf, unlimited } from './hostile-support.js';

/**
 * What an anonymous client can make a gateway process hold open: connections that say nothing,
 * kept-alive ones left idle, half-closed ones, and ones whose client never reads its answers.
 * Each is counted where it lands, in the gateway process's open sockets (/proc/<pid>/fd), and
 * each is gone within its deadline plus a generous margin: the total is capped
 * (V1_MAX_CONNECTIONS), and so is what one address holds (V1_MAX_CONNECTIONS_PER_ADDRESS, by
 * default a quarter of it); the ones past a cap are closed at once, and the owner is served. A
 * client that does not read cannot see its connection close, so the count is read on the
 * server's side, never from the client's events. Clients come from several addresses of 127/8
 * (every one of them is this machine's), so that one address's cap is not what is measured
 * where the total is.
 */
const CAP = 200;
/** V1_MAX_CONNECTIONS_PER_ADDRESS's default for that cap: a quarter of it. */
const PER_ADDRESS = CAP / 4;
/** The addresses the clients of a test come from by turns, unless it names one. */
const ADDRESSES = Array.from({ length: 8 }, (_, i) => `127.0.0.${i + 1}`);
const HEADERS_MS = 1_000;
const REQUEST_MS = 2_000;
/** A connection's first line is watched this long for an HTTP/1.0 body before Node's parser takes it (src/http/server.ts). */
const FIRST_LINE_MS = 2_000;
/** What "ended at its deadline" allows on a busy two-core machine. */
const MARGIN_MS = 10_000;
const KEY = 'connectionskey00000000';
const SECRET = 'connectionssecret0000000000000000';

let gateway: GatewayProcess;
let port: number;
beforeAll(async () => {
  gateway = await startGatewayProcess({
    ...unlimited({ key: KEY, secret: SECRET }),
    V1_MAX_CONNECTIONS: String(CAP),
    V1_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
    V1_REQUEST_TIMEOUT_MS: String(REQUEST_MS),
  });
  port = Number(new URL(gateway.url).port);
}, 60_000);
afterAll(() => gateway?.kill());

/**
 * The connections the gateway process holds open on its public port (established, or closed by the
 * client and not yet by the gateway): its own sockets (by inode, from /proc/<pid>/fd) joined with the
 * kernel's tables. Its sockets to v2 (the OAuth token, the sandbox's listener) are on other ports, and
 * connections the kernel has completed but the process has not yet accepted (its listen backlog,
 * which fills under a flood) are held by no process, so neither is counted.
 */
function publicConnections(): number {
  const portHex = Number(new URL(gateway.url).port).toString(16).toUpperCase().padStart(4, '0');
  const held = new Set(socketInodes());
  return ['/proc/net/tcp', '/proc/net/tcp6'].reduce((count, table) => {
    const rows = readFileSync(table, 'utf8').split('\n').slice(1);
    return (
      count +
      rows.filter((row) => {
        const fields = row.trim().split(/\s+/);
        const [, local, , state] = fields;
        const inode = fields[9];
        return local?.endsWith(`:${portHex}`) && (state === '01' || state === '08') && inode !== undefined && held.has(inode);
      }).length
    );
  }, 0);
}

/** The inodes of the sockets the gateway process has open now. */
function socketInodes(): string[] {
  const dir = `/proc/${gateway.pid}/fd`;
  return readdirSync(dir).flatMap((fd) => {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`${dir}/${fd}`));
      return match?.[1] ? [match[1]] : [];
    } catch {
      return []; // closed while being listed
    }
  });
}

/** The sockets the gateway process has open now (its listening socket and its own v2 connections to its sandbox included). */
function openSockets(): number {
  return socketInodes().length;
}

/**
 * Waits until the gateway holds at most `atMost` sockets, or `giveUpMs` pass; returns how long it
 * took (Infinity when it never got there).
 */
async function socketsDownTo(atMost: number, giveUpMs: number): Promise<number> {
  const startedAt = Date.now();
  while (Date.now() - startedAt < giveUpMs) {
    if (openSockets() <= atMost) return Date.now() - startedAt;
    await sleep(200);
  }
  return Infinity;
}

interface Held {
  socket: Socket;
  /** Whether the client has seen its connection close (a client that reads nothing never does). */
  isClosed: () => boolean;
  /** How long after it was opened the client saw it close (undefined while open). */
  closedAfterMs: () => number | undefined;
}

interface OpenOptions {
  /** Reads nothing back. */
  unread?: boolean;
  /** Ends its side after its bytes. */
  halfClose?: boolean;
  /** The address it comes from (default: the ADDRESSES by turns). */
  from?: string;
}

let turn = 0;

/** Opens a connection and writes `bytes` once connected. */
function open(bytes: string, { unread = false, halfClose = false, from = ADDRESSES[turn++ % ADDRESSES.length]! }: OpenOptions = {}): Held {
  const openedAt = performance.now();
  const socket = connect({ port, host: '127.0.0.1', localAddress: from });
  let closedAfterMs: number | undefined;
  socket.on('error', () => {});
  socket.once('close', () => (closedAfterMs = performance.now() - openedAt));
  if (unread) socket.pause();
  else socket.resume();
  socket.once('connect', () => {
    if (halfClose) socket.end(bytes);
    else if (bytes) socket.write(bytes);
  });
  return { socket, isClosed: () => closedAfterMs !== undefined, closedAfterMs: () => closedAfterMs };
}

/** Opens `count` connections and waits until each is connected (or refused). */
async function openAll(count: number, bytes: string, options: OpenOptions = {}): Promise<Held[]> {
  const held = Array.from({ length: count }, () => open(bytes, options));
  await Promise.all(
    held.map(
      (h) => new Promise((resolve) => (h.socket.connecting ? h.socket.once('connect', resolve).once('close', resolve) : resolve(0))),
    ),
  );
  return held;
}

/**
 * The gateway holds none of `held` within `deadlineMs` plus the margin: its sockets are back to
 * what it had before them. The test's own ends are destroyed only afterwards.
 */
async function expectAllEndedWithin(held: Held[], before: number, deadlineMs: number): Promise<void> {
  const tookMs = await socketsDownTo(before, deadlineMs + MARGIN_MS);
  for (const h of held) h.socket.destroy();
  expect(tookMs).toBeLessThanOrEqual(deadlineMs + MARGIN_MS);
}

/** The owner's call, on a connection of its own from `from`: its answer, or the error that ended it (a connection closed unanswered). */
const ownerCall = (from = '127.0.0.254', to = gateway) =>
  new Promise<unknown>((resolve) => {
    const body = `api_key=${KEY}&api_secret=${SECRET}&email=owner%40sandbox.v1gate.local`;
    const url = new URL(`${to.url}/v1/user/checkemail`);
    const call = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: from,
        agent: false,
        timeout: 30_000,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve(JSON.parse(text) as unknown));
        response.on('error', (error) => resolve({ failed: error.message }));
      },
    );
    call.on('error', (error) => resolve({ failed: error.message }));
    call.on('timeout', () => call.destroy(new Error('no answer in 30 s')));
    call.end(body);
  });

const SERVED = { existed_email: true };

describe('connections that say nothing', () => {
  it(`are capped at V1_MAX_CONNECTIONS (${CAP}): the rest are closed at once, all end at the headers deadline, then the owner is served`, async () => {
    const before = openSockets();
    const held = await openAll(2 * CAP, '');
    await vi.waitFor(() => expect(held.filter((h) => h.isClosed()).length).toBeGreaterThanOrEqual(CAP), {
      timeout: MARGIN_MS,
      interval: 50,
    });
    // The gateway holds at most the cap; the ones past it were closed as soon as they were accepted:
    // sooner than any deadline could have closed a connection that says nothing (its first line is
    // awaited FIRST_LINE_MS from its accept, after its opening, and a timer never fires early).
    expect(openSockets() - before).toBeLessThanOrEqual(CAP);
    expect(held.filter((h) => h.closedAfterMs()! < FIRST_LINE_MS).length).toBeGreaterThanOrEqual(CAP);
    await expectAllEndedWithin(held, before, FIRST_LINE_MS + HEADERS_MS);
    expect(held.every((h) => h.isClosed())).toBe(true);
    expect(await ownerCall()).toEqual(SERVED);
  });
});

describe('one address reconnecting as fast as it can', () => {
  it(`holds at most V1_MAX_CONNECTIONS_PER_ADDRESS (a quarter of the cap: ${PER_ADDRESS}), and the owner at another address is served all along`, async () => {
    const before = openSockets();
    const publicBefore = publicConnections();
    const attacker = '127.0.0.1';
    let flooding = true;
    let refused = 0;
    // Each of twice the cap's connections reconnects the moment it is closed, for as long as the flood lasts.
    const reconnect = (): Promise<void> =>
      new Promise<void>((resolve) => {
        const held = open('', { from: attacker });
        held.socket.once('close', () => {
          if ((held.closedAfterMs() ?? Infinity) < FIRST_LINE_MS) refused++;
          resolve();
        });
      }).then(() => (flooding ? reconnect() : undefined));
    const flood = Array.from({ length: 2 * CAP }, () => reconnect());
    await vi.waitFor(() => expect(refused).toBeGreaterThanOrEqual(10 * CAP), { timeout: 60_000, interval: 50 });
    // The attacker's address holds its share, no more: the rest of the slots are free. A connection the
    // gateway is refusing right now still has its descriptor until libuv closes it, so one sample can count
    // one over the share; the fewest of a few samples is what the address holds.
    const samples: number[] = [];
    for (let i = 0; i < 5; i++, await sleep(10)) samples.push(publicConnections() - publicBefore);
    expect(Math.min(...samples)).toBeLessThanOrEqual(PER_ADDRESS);
    const answers: unknown[] = [];
    for (let i = 0; i < 45; i++) answers.push(await ownerCall());
    const refusedWhileServed = refused;
    flooding = false;
    expect(answers.filter((answer) => JSON.stringify(answer) === JSON.stringify(SERVED))).toHaveLength(45);
    expect(refusedWhileServed).toBeGreaterThan(10 * CAP); // the flood went on while the owner was served
    await Promise.race([Promise.all(flood), sleep(FIRST_LINE_MS + HEADERS_MS + MARGIN_MS)]);
    expect(await socketsDownTo(before, MARGIN_MS)).toBeLessThanOrEqual(MARGIN_MS);
  });

  it('is served itself again once it holds fewer than its cap', async () => {
    const held = await openAll(PER_ADDRESS, '', { from: '127.0.0.9' });
    expect(await ownerCall('127.0.0.9')).toMatchObject({ failed: expect.any(String) });
    held[0]!.socket.destroy();
    await vi.waitFor(async () => expect(await ownerCall('127.0.0.9')).toEqual(SERVED), { timeout: MARGIN_MS, interval: 100 });
    for (const h of held) h.socket.destroy();
  });
});

describe('kept-alive connections left idle', () => {
  it(`each end ${KEEP_ALIVE_IDLE_MS} ms after their last answer`, async () => {
    const before = openSockets();
    const request = 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n';
    const held = await openAll(100, request);
    await expectAllEndedWithin(held, before, KEEP_ALIVE_IDLE_MS);
  });
});

describe('half-closed connections', () => {
  it('a whole request then the client’s end: answered and closed', async () => {
    const before = openSockets();
    const held = await openAll(100, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n', { halfClose: true });
    await expectAllEndedWithin(held, before, 0);
  });

  it('half a request then the client’s end: closed', async () => {
    const before = openSockets();
    const held = await openAll(100, 'POST /v1/user/get HTTP/1.1\r\nHost: x\r\nContent-Le', { halfClose: true });
    await expectAllEndedWithin(held, before, 0);
  });
});

describe('clients that never read their answers', () => {
  it('are cut once their answer’s bytes have not moved for the request deadline, however much they pipelined; then the owner is served', async () => {
    const before = openSockets();
    const memory = memoryOf(gateway.pid);
    // 1,000 asks for the 17 KiB status page each: far more than a connection's kernel buffers
    // take (a few MiB on loopback), so each connection's answers stall once those are full.
    const request = 'GET /status HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(1_000);
    const held = await openAll(20, request, { unread: true });
    await expectAllEndedWithin(held, before, REQUEST_MS + KEEP_ALIVE_IDLE_MS);
    // Node stops reading a connection whose answers wait: what the stalled ones made it hold is small.
    expect(memoryOf(gateway.pid).peakMiB - memory.peakMiB).toBeLessThan(100);
    expect(await ownerCall()).toEqual(SERVED);
  });
});

describe('in sandbox mode, the public listener full but for one slot', () => {
  const SMALL_CAP = 64;
  let small: GatewayProcess;
  beforeAll(async () => {
    small = await startGatewayProcess({
      ...unlimited({ key: KEY, secret: SECRET }),
      V1_MAX_CONNECTIONS: String(SMALL_CAP),
      V1_MAX_CONNECTIONS_PER_ADDRESS: String(SMALL_CAP),
      // The held connections stay through every call below: they end at the headers deadline.
      V1_HEADERS_TIMEOUT_MS: '60000',
    });
  }, 60_000);
  afterAll(() => small?.kill());

  it('the owner’s calls are served on the last slot: the gateway reaches its sandbox on a listener of its own', async () => {
    const smallPort = Number(new URL(small.url).port);
    const held = Array.from({ length: SMALL_CAP - 1 }, () => connect({ port: smallPort, host: '127.0.0.1' }).on('error', () => {}));
    await Promise.all(held.map((socket) => new Promise((resolve) => socket.once('connect', resolve))));
    const answers: unknown[] = [];
    for (let i = 0; i < 10; i++) answers.push(await ownerCall('127.0.0.254', small));
    expect(answers).toEqual(Array.from({ length: 10 }, () => SERVED));
    // Still held: the calls above were served beside them, not after them.
    expect(held.every((socket) => !socket.closed)).toBe(true);
    for (const socket of held) socket.destroy();
    expect(await ownerCall('127.0.0.254', small)).toEqual(SERVED);
  });
});

describe('a dual-stack listener (HOST=::)', () => {
  const SHARE = 5;
  let dual: GatewayProcess;
  beforeAll(async () => {
    dual = await startGatewayProcess({
      ...unlimited({ key: KEY, secret: SECRET }),
      HOST: '::',
      V1_MAX_CONNECTIONS_PER_ADDRESS: String(SHARE),
      V1_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
    });
  }, 60_000);
  afterAll(() => dual?.kill());

  /** Opens `count` silent connections to `host` and counts those closed at once (past the address's share). */
  async function closedAtOnce(host: string, count: number): Promise<{ closed: number; sockets: Socket[] }> {
    const dualPort = Number(new URL(dual.url).port);
    const openedAt = performance.now();
    const closedAfter: number[] = [];
    const sockets = Array.from({ length: count }, () =>
      connect({ port: dualPort, host })
        .on('error', () => {})
        .once('close', () => closedAfter.push(performance.now() - openedAt)),
    );
    await vi.waitFor(() => expect(closedAfter.length).toBeGreaterThanOrEqual(count - SHARE), { timeout: MARGIN_MS, interval: 50 });
    return { closed: closedAfter.filter((ms) => ms < FIRST_LINE_MS).length, sockets };
  }

  it('counts an IPv4 client it sees as ::ffff:127.0.0.1 by its address, and ::1 as a client of its own', async () => {
    const v4 = await closedAtOnce('127.0.0.1', 2 * SHARE);
    const v6 = await closedAtOnce('::1', 2 * SHARE);
    expect(v4.closed).toBe(SHARE);
    expect(v6.closed).toBe(SHARE);
    for (const socket of [...v4.sockets, ...v6.sockets]) socket.destroy();
  });
});
