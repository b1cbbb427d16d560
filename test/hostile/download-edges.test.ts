import { readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { recordingBytes } from '../../src/sandbox/report/recording-downloads.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { failOnUnhandled } from '../support/unhandled.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';
import { recordedFileAt } from '../support/process-recordings.js';
import { NO_LIMITS } from '../support/v1-answers.js';
import { noCloseWait } from '../support/v2-faults.js';

/**
 * A download link in the hands of a client that does everything a client can to a download: odd
 * Range headers, leaving at every point of the exchange (before the answer, after its head, mid
 * body, by a reset), the recording deleted while its bytes stream, hostile If-None-Match lists.
 * Each must leave nothing unhandled in the process, no connection open, the key's download slots
 * all given back (DOWNLOAD_MAX_PER_KEY is 2 here, so one slot kept shows at once) and the
 * sandbox's download closed.
 */

failOnUnhandled();

const KEY = 'a-download-signing-key-of-32-chars-at-least';
const SIZE = 4 * 1024 * 1024 + 13;
const SLOTS = 2;

let gw: TestGateway;
let file: { id: string; download_url: string };

beforeAll(async () => {
  gw = await startTestGateway({ ...NO_LIMITS, DOWNLOAD_URL_KEY: KEY, DOWNLOAD_MAX_PER_KEY: String(SLOTS) });
  file = (await recorded(SIZE)).file;
});
afterAll(() => gw?.close());

async function recorded(size: number): Promise<{ uuid: string; file: { id: string; download_url: string } }> {
  const host = (await gw.v2('GET', '/users/me')).body.id;
  const created = await gw.v2('POST', `/users/${host}/meetings`, {
    body: { topic: 'Hostile downloads', type: 2, start_time: '2024-06-01T08:00:00Z', duration: 30 },
  });
  const happened = await gw.control('POST', `/meetings/${created.body.id}/happen`, {
    start_time: '2024-06-01T08:00:00Z',
    duration_minutes: 30,
    recording: { files: [{ file_type: 'MP4', file_size: size }] },
  });
  expect(happened.status, JSON.stringify(happened.body)).toBe(201);
  const got = await gw.v1('/recording/get', { meeting_id: happened.body.uuid });
  return { uuid: happened.body.uuid, file: got.recording_files[0] };
}

type Counts = { requests: number; bytes_served: number; open: number };
const served = async (): Promise<Counts> => (await gw.control('GET', '/recordings/served')).body;
const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());
const pathOf = (link: string) => new URL(link).pathname;

/** The process's open file descriptors (sockets, files, pipes), from /proc. */
const descriptors = () => readdirSync('/proc/self/fd').length;

/**
 * Every slot of the key is free and the sandbox sends nothing: SLOTS downloads at once each get
 * their first bytes, and none is refused 429 (a slot kept by an earlier download would be).
 */
async function slotsAllFree(): Promise<void> {
  await vi.waitFor(async () => expect((await served()).open).toBe(0), { timeout: 10_000, interval: 50 });
  const leaving = Array.from({ length: SLOTS }, () => new AbortController());
  const answers = await Promise.all(leaving.map((l) => fetch(file.download_url, { signal: l.signal })));
  expect(answers.map((a) => a.status)).toEqual(Array(SLOTS).fill(200));
  for (const answer of answers) await answer.body!.getReader().read();
  for (const l of leaving) l.abort();
  await vi.waitFor(async () => expect((await served()).open).toBe(0), { timeout: 10_000, interval: 50 });
}

/** A GET of the link on a raw socket: `leave` decides when the client goes, by a close or a reset. */
function rawDownload(link: string, leave: (received: number, socket: import('node:net').Socket) => boolean): Promise<number> {
  const url = new URL(link);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    let received = 0;
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(received));
    socket.on('connect', () => {
      socket.write(`GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
      if (leave(0, socket)) return;
      socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
        leave(received, socket);
      });
    });
  });
}

describe('Range headers of every shape, passed up to v2', () => {
  const bytes = () => recordingBytes(file.id);
  const long = '9'.repeat(400);
  const cases: [string, number, string, (() => Buffer) | undefined][] = [
    ['one range', 206, 'bytes=0-9', () => bytes()(0, 9)],
    ['two overlapping', 200, 'bytes=0-9,5-20', undefined],
    ['the same open range eight times', 200, 'bytes=0-,0-,0-,0-,0-,0-,0-,0-', undefined],
    ['the last byte', 206, 'bytes=-1', () => bytes()(SIZE - 1, SIZE - 1)],
    ['reversed', 416, 'bytes=10-5', undefined],
    ['from the end', 416, `bytes=${SIZE}-`, undefined],
    ['a start of 400 digits', 416, `bytes=${long}-`, undefined],
    ['an end of 400 digits', 206, `bytes=0-${long}`, undefined],
    ['a suffix of 400 digits', 206, `bytes=-${long}`, undefined],
    ['an empty suffix', 416, 'bytes=-0', undefined],
    ['a double dash', 200, 'bytes=--1', undefined],
    ['another unit', 200, 'items=0-9', undefined],
    ['a latin-1 byte', 200, 'bytes=\u00ff-1', undefined],
    ['2,001 ranges', 200, `bytes=${'0-1,'.repeat(2000)}0-1`, undefined],
  ];

  it.each(cases)('%s: answered %i, with the bytes v2 sent', async (_, status, range, expected) => {
    const answer = await fetch(file.download_url, { headers: { range } });
    expect(answer.status).toBe(status);
    const body = await bytesOf(answer);
    if (status === 200) expect(body.length).toBe(SIZE);
    if (status === 416) expect(answer.headers.get('content-range')).toBe(`bytes */${SIZE}`);
    if (expected) expect(body.equals(expected())).toBe(true);
  });

  it('after them all: every slot free, nothing open', async () => {
    await slotsAllFree();
    expect(await noCloseWait()).toBe(0);
  });
});

describe('conditional and HEAD requests with hostile validators', () => {
  it('a thousand tags, a tag of 6,000 characters, odd spellings: a 200 or 304 as the tags say, nothing read of the file', async () => {
    const head = await fetch(file.download_url, { method: 'HEAD' });
    const etag = head.headers.get('etag')!;
    const before = await served();
    const lists: [string, number][] = [
      [Array.from({ length: 1000 }, (_, i) => `"t${i}"`).join(', '), 200],
      [`"${'x'.repeat(6_000)}"`, 200],
      [`${',  '.repeat(2000)}W/${etag}`, 304],
      ['*', 304],
      ['W/', 200],
      ['"', 200],
    ];
    for (const [list, status] of lists) {
      const answer = await fetch(file.download_url, { method: 'HEAD', headers: { 'if-none-match': list } });
      expect(answer.status, list.slice(0, 40)).toBe(status);
    }
    expect((await served()).requests).toBe(before.requests);
  });
});

describe('clients that leave', () => {
  it('at every point of the download, 10 times each: nothing unhandled, every slot given back, no connection or descriptor kept', async () => {
    await slotsAllFree();
    const fdsBefore = descriptors();
    const leaves: [string, (received: number, socket: import('node:net').Socket) => boolean][] = [
      ['a close as soon as the request is sent', (_, s) => (s.destroy(), true)],
      ['a reset as soon as the request is sent', (_, s) => (s.resetAndDestroy(), true)],
      ['a close after the head', (received, s) => (received > 0 && s.destroy(), false)],
      ['a reset after a megabyte', (received, s) => (received > 1024 * 1024 && s.resetAndDestroy(), false)],
      ['a half-close, then reading on', (received, s) => (received === 0 && s.end(), false)],
    ];
    for (const [, leave] of leaves) {
      for (let time = 0; time < 10; time++) await rawDownload(file.download_url, leave);
    }
    // Through fetch too, aborted while v2's file list is still being asked for, and mid-body.
    for (let time = 0; time < 10; time++) {
      const leaving = new AbortController();
      const asked = fetch(file.download_url, { signal: leaving.signal }).catch(() => undefined);
      setImmediate(() => leaving.abort());
      const answer = await asked;
      await answer?.body?.cancel().catch(() => undefined);
    }
    await slotsAllFree();
    expect(await noCloseWait()).toBe(0);
    // The agent keeps its v2 connections alive: a few descriptors more, never one per download.
    await vi.waitFor(() => expect(descriptors()).toBeLessThanOrEqual(fdsBefore + SLOTS + 4), { timeout: 10_000 });
    expect((await gw.v1('/user/list', {})).users).toBeDefined();
  });

  it('pipelining downloads behind one another and leaving: the first answered, nothing kept', async () => {
    const url = new URL(file.download_url);
    const request = `GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nRange: bytes=0-99\r\n\r\n`;
    const received = await new Promise<string>((resolve) => {
      const socket = connect(Number(url.port), url.hostname);
      let text = '';
      socket.on('error', () => undefined);
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
        if (text.length > 150) socket.resetAndDestroy();
      });
      socket.on('close', () => resolve(text));
      socket.write(`${request}\x00\xff not http\r\n\r\n${request.repeat(20)}`);
    });
    expect(received).toMatch(/^HTTP\/1\.1 206 /);
    await slotsAllFree();
    expect(await noCloseWait()).toBe(0);
  });
});

describe('the recording deleted while its bytes stream', () => {
  it('the download in flight ends cleanly, the next is a 404, every slot is given back', async () => {
    const recording = await recorded(SIZE);
    const answer = await fetch(recording.file.download_url);
    expect(answer.status).toBe(200);
    const reader = answer.body!.getReader();
    let read = (await reader.read()).value?.length ?? 0;
    const token = encodeURIComponent(encodeURIComponent(recording.uuid));
    expect((await gw.v2('DELETE', `/meetings/${token}/recordings`, { query: { action: 'delete' } })).status).toBe(204);
    // The bytes already asked for may still come; whatever comes, the read ends.
    for (;;) {
      const next = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (next.done) break;
      read += next.value.length;
    }
    expect(read).toBeLessThanOrEqual(SIZE);
    const after = await fetch(recording.file.download_url);
    expect(after.status).toBe(404);
    await after.body?.cancel();
    await slotsAllFree();
    expect(await noCloseWait()).toBe(0);
  });

  it('deleted again and again while SLOTS downloads of it are held open and left: nothing unhandled, nothing kept', async () => {
    for (let round = 0; round < 5; round++) {
      const recording = await recorded(SIZE);
      const leaving = Array.from({ length: SLOTS }, () => new AbortController());
      const answers = await Promise.all(leaving.map((l) => fetch(recording.file.download_url, { signal: l.signal })));
      expect(answers.map((a) => a.status)).toEqual(Array(SLOTS).fill(200));
      const token = encodeURIComponent(encodeURIComponent(recording.uuid));
      await gw.v2('DELETE', `/meetings/${token}/recordings`, { query: { action: 'delete' } });
      for (const l of leaving) l.abort();
    }
    await slotsAllFree();
    expect(await noCloseWait()).toBe(0);
  });
});

describe('paths beside a link', () => {
  it('a link with odd bytes around it, or too long: refused before any v2 call', async () => {
    const before = await served();
    const link = pathOf(file.download_url);
    const origin = new URL(file.download_url).origin;
    for (const path of [`${link}%`, `${link}%ZZ`, `${link}%00`, `${link}/`, `${link}/x`, `/downloads/${'A'.repeat(5000)}`]) {
      const answer = await fetch(`${origin}${path}`);
      expect(answer.status, path.slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(answer.status, path.slice(0, 80)).toBeLessThan(500);
      await answer.body?.cancel();
    }
    expect((await served()).requests).toBe(before.requests);
  });
});

describe('SIGTERM while a download streams to a client that reads slowly', () => {
  const pair = { key: 'sigterm-download-key', secret: 'sigterm-download-secret-0123456789' };
  let process_: GatewayProcess | undefined;
  afterAll(() => process_?.kill());

  it('the process drains and exits 0 with no error line; the client sees its download end, never a hang', async () => {
    process_ = await startGatewayProcess({
      ...NO_LIMITS,
      SANDBOX_RATE_LIMITS: 'off',
      SANDBOX_API_KEY: pair.key,
      SANDBOX_API_SECRET: pair.secret,
      DOWNLOAD_URL_KEY: KEY,
      SHUTDOWN_GRACE_MS: '2000',
      LOG_LEVEL: 'warn',
    });
    const gateway = process_;
    const recording = await recordedFileAt(gateway.url, pair, 100 * 1024 * 1024);
    let exit: number | null | undefined;
    gateway.onExit((code) => (exit = code));
    const answer = await fetch(recording.link);
    expect(answer.status).toBe(200);
    const reader = answer.body!.getReader();
    await reader.read();
    gateway.signal('SIGTERM');
    await vi.waitFor(() => expect(exit).toBe(0), { timeout: 20_000, interval: 100 });
    // What the sockets' buffers held comes, then the end: a clean end or an error, within bounds.
    let ended = false;
    while (!ended) ended = (await reader.read().catch(() => ({ done: true }))).done;
    expect(gateway.output()).not.toMatch(/"level":(50|60)|Error|unhandled/i);
  }, 60_000);
});
