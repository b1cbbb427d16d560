import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';
import { expectErrorText } from '../support/error-text.js';
import { rawExchange } from '../support/raw-http.js';
import { firstAnswer, head, memoryOf, unlimited } from './hostile-support.js';

/**
 * Each body has its limit (V1_MAX_BODY_BYTES, 4 MiB), and all of them together have one too
 * (V1_MAX_BUFFERED_BYTES, 16 bodies' worth: 64 MiB). 128 anonymous uploads of 4 MiB open at once
 * (sixteen first, then 112 more), each held one byte short of its end, to a gateway in its own
 * process: without the overall bound the gateway would hold 512 MiB. With it, the sixteen fill the
 * pool and the 112 are refused as busy (the v1 envelope, the connection closed), the memory the
 * gateway grows by stays near the bound, and an ordinary call, whose small body is never taken
 * from the pool, is answered all the while.
 */
const KEY = 'manybodieskey000000000';
const SECRET = 'manybodiessecret00000000000000000';
const BODY = 4 * 1024 * 1024;
const UPLOADS = 128;
const POOL = 16 * BODY;
/** How many uploads one pool holds: 16 of (4 MiB less their free 16 KiB). */
const POOLED_UPLOADS = 16;
/**
 * Growth allowed while the bodies are held: the pool (64 MiB), and as much again and some for the
 * chunks read and thrown away that the garbage collector has not yet freed, and socket buffers:
 * 134 MiB is seen with 128 uploads and 141 with 256 (it does not grow with the uploads); without
 * the overall bound, 128 uploads grew the gateway by 500 MiB.
 */
const HELD_GROWTH_MIB = 200;
const BUSY = {
  error: {
    code: 300,
    message: `v1gate is holding as many request bodies as it may at once (${POOL} bytes in all): send the request again shortly.`,
  },
};

const MISSING_CREDENTIALS = { error: { code: 101, message: 'Api key and secret are required.' } };

let gateway: GatewayProcess;
beforeAll(async () => {
  gateway = await startGatewayProcess({
    ...unlimited({ key: KEY, secret: SECRET }),
    // The uploads are held open as long as the test needs: neither stalls nor deadlines end them.
    V1_BODY_TIMEOUT_MS: '60000',
    V1_REQUEST_TIMEOUT_MS: '120000',
  });
}, 60_000);
afterAll(() => gateway?.kill());

interface Upload {
  socket: Socket;
  /** Everything the server sent. */
  reply: () => string;
  closed: Promise<void>;
  /** Resolves once every byte but the last is handed to the connection (or the server ended it first). */
  sent: Promise<void>;
}

/** An upload of BODY bytes that sends all but its last byte, as fast as the connection takes them. */
function upload(port: number): Upload {
  const socket = connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const sent = new Promise<void>((resolve) => {
    socket.once('connect', () => {
      socket.write(
        head('POST /v1/user/checkemail HTTP/1.1', {
          Host: 'x',
          'Content-Type': 'application/x-www-form-urlencoded',
          'Content-Length': BODY,
        }),
      );
      socket.write('email=');
      const piece = Buffer.alloc(64 * 1024, 'a');
      let left = BODY - 'email='.length - 1;
      const more = () => {
        while (left > 0 && socket.writable) {
          const next = piece.subarray(0, Math.min(piece.length, left));
          left -= next.length;
          if (!socket.write(next)) return void socket.once('drain', more);
        }
        resolve();
      };
      more();
    });
    socket.once('close', () => resolve());
  });
  return { socket, reply: () => Buffer.concat(chunks).toString('latin1'), closed, sent };
}

const checkEmail = (body: string) =>
  fetch(`${gateway.url}/v1/user/checkemail`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
    signal: AbortSignal.timeout(30_000),
  }).then(async (response) => await response.json());

/** Bytes the process has read through system calls, sockets included (Linux /proc/<pid>/io). */
function bytesRead(pid: number): number {
  return Number(/^rchar:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? NaN);
}

/** Waits until the process has read `bytes` more than `from` (or `giveUpMs` passed). */
async function readThrough(pid: number, from: number, bytes: number, giveUpMs: number): Promise<void> {
  const giveUpAt = Date.now() + giveUpMs;
  while (bytesRead(pid) - from < bytes && Date.now() < giveUpAt) await sleep(100);
}

describe(`${UPLOADS} uploads of 4 MiB at once`, () => {
  it('hold at most the overall bound; the rest are refused as busy; an ordinary call is answered all the while', async () => {
    const port = Number(new URL(gateway.url).port);
    const owner = `api_key=${KEY}&api_secret=${SECRET}&email=owner%40sandbox.v1gate.local`;
    expect(await checkEmail(owner)).toEqual({ existed_email: true });
    const before = memoryOf(gateway.pid);

    // Sixteen first, read through (the pool is then full but for 256 KiB), then 112 more at once.
    const readBefore = bytesRead(gateway.pid);
    const first = Array.from({ length: POOLED_UPLOADS }, () => upload(port));
    await Promise.all(first.map((u) => u.sent));
    await readThrough(gateway.pid, readBefore, POOLED_UPLOADS * (BODY - 1), 120_000);
    const rest = Array.from({ length: UPLOADS - POOLED_UPLOADS }, () => upload(port));
    await Promise.all(rest.map((u) => u.sent));
    // Every byte sent is read: kept (the bodies the pool took) or thrown away (those it refused).
    await readThrough(gateway.pid, readBefore, UPLOADS * (BODY - 1), 120_000);
    const held = memoryOf(gateway.pid);
    expect(held.peakMiB - before.peakMiB).toBeLessThan(HELD_GROWTH_MIB);

    // The pool is full: an ordinary call (its body under 16 KiB) is answered; a large one is refused.
    expect(await checkEmail(owner)).toEqual({ existed_email: true });
    expect(await checkEmail(`${owner}&note=${'n'.repeat(400_000)}`)).toEqual(BUSY);
    // So is one sent as HTTP/1.0 without a length, which the server reads to its end before any route.
    const unframed = await rawExchange(
      port,
      `POST /v1/user/checkemail HTTP/1.0\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\n${owner}&note=${'n'.repeat(400_000)}`,
      { halfClose: true, waitMs: 10_000 },
    );
    expect(unframed.closedByServer).toBe(true);
    expect(JSON.parse(unframed.responses[0]!.body)).toEqual(BUSY);
    expectErrorText(JSON.parse(unframed.responses[0]!.body).error, 'body-busy', [String(POOL)]);

    // Each upload ends: a body the pool took is read whole and answered (no credentials); the rest are refused as busy.
    const uploads = [...first, ...rest];
    for (const u of uploads) u.socket.write('a');
    await Promise.all(uploads.map((u) => u.closed));
    expect(first.map((u) => firstAnswer(u.reply()))).toEqual(Array(POOLED_UPLOADS).fill({ status: 200, body: MISSING_CREDENTIALS }));
    expect(rest.map((u) => firstAnswer(u.reply()))).toEqual(Array(UPLOADS - POOLED_UPLOADS).fill({ status: 200, body: BUSY }));
    // Then the pool is free again.
    expect(await checkEmail(`${owner}&note=${'n'.repeat(400_000)}`)).toEqual({ existed_email: true });
  }, 240_000);
});
