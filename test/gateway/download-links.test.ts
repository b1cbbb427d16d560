import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxToken } from '../../scripts/sandbox-token.js';
import { recordingBytes } from '../../src/sandbox/report/recording-downloads.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';
import { recordedFileAt } from '../support/process-recordings.js';
import { NO_LIMITS } from '../support/v1-answers.js';

/**
 * A recording file's download link behaves as v1's did: it is the file's one address, the same in
 * every answer, on every process sharing DOWNLOAD_URL_KEY, after restarts, for as long as the file
 * exists, and no longer. Integrations keep such links in pages and find them again by exact string
 * match. Links carry the scheme and host the client used (a trusted proxy's), and a download
 * answers as a file server does: HEAD and conditional requests cost nothing of the file.
 */

const KEY = 'a-download-signing-key-of-32-chars-at-least';
const HOUR = 3_600_000;

type V1File = { id: string; file_type: string; file_size: number; download_url: string };
type Counts = { requests: number; bytes_served: number; open: number };

async function recorded(
  on: TestGateway,
  files: { file_type: string; file_size: number }[],
  topic = 'Recorded',
): Promise<{ id: number; uuid: string }> {
  const host = (await on.v2('GET', '/users/me')).body.id;
  const created = await on.v2('POST', `/users/${host}/meetings`, {
    body: { topic, type: 2, start_time: '2024-06-01T08:00:00Z', duration: 30 },
  });
  const happened = await on.control('POST', `/meetings/${created.body.id}/happen`, {
    start_time: '2024-06-01T08:00:00Z',
    duration_minutes: 30,
    recording: { files },
  });
  expect(happened.status, JSON.stringify(happened.body)).toBe(201);
  return { id: created.body.id, uuid: happened.body.uuid };
}

const served = async (on: TestGateway): Promise<Counts> => (await on.control('GET', '/recordings/served')).body;
const filesOf = async (on: TestGateway, uuid: string): Promise<V1File[]> =>
  (await on.v1('/recording/get', { meeting_id: uuid })).recording_files;
const v1Error = (message: RegExp) => ({ error: { code: 404, message: expect.stringMatching(message) } });

describe('one link per file, in-process, with a clock the test moves', () => {
  let gw: TestGateway;
  let now = Date.UTC(2026, 0, 1, 9);
  let hostId: string;

  beforeAll(async () => {
    gw = await startTestGateway({ ...NO_LIMITS, DOWNLOAD_URL_KEY: KEY }, { downloadClock: () => now });
    hostId = (await gw.v2('GET', '/users/me')).body.id;
  });
  afterAll(() => gw.close());

  it('the same download_url for the same file in every recording/get and recording/list answer', async () => {
    const meeting = await recorded(gw, [
      { file_type: 'MP4', file_size: 4096 },
      { file_type: 'TRANSCRIPT', file_size: 100 },
    ]);
    const first = await filesOf(gw, meeting.uuid);
    const second = await filesOf(gw, meeting.uuid);
    expect(second.map((f) => f.download_url)).toEqual(first.map((f) => f.download_url));
    expect(new Set(first.map((f) => f.download_url)).size).toBe(2);
    const listed = (await gw.v1('/recording/list', { host_id: hostId })).meetings.find((m: any) => m.uuid === meeting.uuid);
    for (const file of first) expect(listed.recording_files.find((f: V1File) => f.id === file.id).download_url).toBe(file.download_url);
  });

  it('still downloads 7 hours later (the old lifetime was 6), and the next answer carries the same link', async () => {
    const meeting = await recorded(gw, [{ file_type: 'M4A', file_size: 70_001 }]);
    const [file] = await filesOf(gw, meeting.uuid);
    now += 7 * HOUR;
    const later = await fetch(file!.download_url);
    expect(later.status).toBe(200);
    expect(Buffer.from(await later.arrayBuffer()).equals(recordingBytes(file!.id)(0, 70_000))).toBe(true);
    now += 30 * 24 * HOUR;
    expect((await filesOf(gw, meeting.uuid))[0]!.download_url).toBe(file!.download_url);
    const month = await fetch(file!.download_url, { headers: { range: 'bytes=0-9' } });
    expect(month.status).toBe(206);
    await month.arrayBuffer();
  });

  it('answers a v1-shaped 404 once the file is deleted, or its recording trashed or deleted; the gateway answers on', async () => {
    const meeting = await recorded(gw, [
      { file_type: 'MP4', file_size: 1000 },
      { file_type: 'M4A', file_size: 1000 },
    ]);
    const [mp4, m4a] = await filesOf(gw, meeting.uuid);
    expect((await gw.v2('DELETE', `/meetings/${meeting.id}/recordings/${mp4!.id}?action=delete`)).status).toBe(204);
    const before = await served(gw);
    for (const method of ['GET', 'HEAD']) {
      const gone = await fetch(mp4!.download_url, { method });
      expect(gone.status, method).toBe(404);
      if (method === 'GET') expect(await gone.json()).toEqual(v1Error(/no such recording file/));
    }
    // The other file of the same recording is still there, under the same link.
    expect((await fetch(m4a!.download_url)).status).toBe(200);
    expect(
      (await gw.v2('DELETE', `/meetings/${encodeURIComponent(encodeURIComponent(meeting.uuid))}/recordings?action=trash`)).status,
    ).toBe(204);
    const trashed = await fetch(m4a!.download_url);
    expect(trashed.status).toBe(404);
    expect(await trashed.json()).toEqual(v1Error(/no such recording file/));
    // Nothing was downloaded for the gone files: v2's list said so first.
    expect((await served(gw)).requests).toBe(before.requests + 1);
    expect((await gw.v1('/user/list', {})).users.length).toBeGreaterThan(0);
  });

  it('HEAD of a 200 MB recording reads nothing of the file from v2, and says what GET would', async () => {
    const big = await recorded(gw, [{ file_type: 'MP4', file_size: 200 * 1024 * 1024 }]);
    const [file] = await filesOf(gw, big.uuid);
    const before = await served(gw);
    const head = await request(file!.download_url, { method: 'HEAD' });
    await head.body.dump();
    const after = await served(gw);
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(200 * 1024 * 1024));
    expect(head.headers['content-type']).toBe('video/mp4');
    expect(head.headers['content-disposition']).toBe(`attachment; filename="${file!.id}.mp4"`);
    expect(head.headers['accept-ranges']).toBe('bytes');
    expect(head.headers['etag']).toMatch(/^"[\w-]+"$/);
    console.log(`HEAD of a 200 MB recording: ${after.bytes_served - before.bytes_served} bytes read from v2`);
    expect(after.bytes_served - before.bytes_served).toBeLessThan(1024 * 1024);
    expect(after.requests).toBe(before.requests);
    expect(after.open).toBe(before.open);

    // GET carries the same headers and ETag; with that ETag in If-None-Match, a 304 and no download.
    const etag = String(head.headers['etag']);
    const range = await fetch(file!.download_url, { headers: { range: 'bytes=0-99' } });
    expect(range.status).toBe(206);
    expect(range.headers.get('etag')).toBe(etag);
    await range.arrayBuffer();
    const counted = await served(gw);
    for (const given of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await fetch(file!.download_url, { headers: { 'if-none-match': given } });
      expect(again.status, given).toBe(304);
      expect(again.headers.get('etag')).toBe(etag);
    }
    expect(await served(gw)).toEqual(counted);
    const changed = await fetch(file!.download_url, { headers: { 'if-none-match': '"another-file"', range: 'bytes=0-9' } });
    expect(changed.status).toBe(206);
    await changed.arrayBuffer();
  });

  it("an admin plugin's flow: links written into a page, recordings moved away, every link found again by exact string match", async () => {
    const classes: { id: number; uuid: string }[] = [];
    for (let at = 0; at < 4; at++) classes.push(await recorded(gw, [{ file_type: 'MP4', file_size: 2000 + at }], `Class ${at}`));
    const ours = (answer: any) => answer.meetings.filter((m: any) => classes.some((c) => c.uuid === m.uuid));
    const listed = async () => ours(await gw.v1('/recording/list', { host_id: hostId, page_size: 300 }));
    // The course pages: each class's recording link written into its page's HTML.
    let page = (await listed())
      .map((m: any) => `<p>${m.topic}: <a href="${m.recording_files[0].download_url}">recording</a></p>`)
      .join('\n');
    now += 9 * HOUR;
    // Later: the plugin moves two classes' recordings to its own storage, then replaces their links.
    const later = await listed();
    expect(later).toHaveLength(4);
    for (const moving of later.slice(0, 2)) {
      const link = moving.recording_files[0].download_url as string;
      const copied = await fetch(link);
      expect(copied.status).toBe(200);
      expect((await copied.arrayBuffer()).byteLength).toBe(moving.recording_files[0].file_size);
      expect(
        (await gw.v2('DELETE', `/meetings/${encodeURIComponent(encodeURIComponent(moving.uuid))}/recordings?action=delete`)).status,
      ).toBe(204);
      expect(page.includes(link), `${moving.topic}'s link is in the page`).toBe(true);
      page = page.split(link).join(`https://storage.example.edu/${moving.uuid}.mp4`);
      expect((await fetch(link)).status).toBe(404);
    }
    // The two left are still listed with the very links the page holds, and download.
    const left = await listed();
    expect(left).toHaveLength(2);
    for (const meeting of left) {
      const link = meeting.recording_files[0].download_url as string;
      expect(page.includes(link), `${meeting.topic}'s link is in the page`).toBe(true);
      expect((await fetch(link, { method: 'HEAD' })).status).toBe(200);
    }
    expect(page.match(/\/downloads\//g)).toHaveLength(2);
    expect(page.match(/storage\.example\.edu/g)).toHaveLength(2);
  });
});

describe('links carry the scheme and host the client used', () => {
  const FORWARDED = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'v1gate.example.com', 'x-forwarded-for': '203.0.113.9' };

  async function linkThrough(gw: TestGateway, headers: Record<string, string>): Promise<string> {
    const meeting = await recorded(gw, [{ file_type: 'M4A', file_size: 10 }]);
    const form = new URLSearchParams({ ...gw.credentials, meeting_id: meeting.uuid });
    const answer = await fetch(`${gw.url}/v1/recording/get`, { method: 'POST', body: form, headers });
    expect(answer.status).toBe(200);
    return ((await answer.json()) as { recording_files: V1File[] }).recording_files[0]!.download_url;
  }

  it('from a trusted proxy: its X-Forwarded-Proto and X-Forwarded-Host, or its Forwarded header', async () => {
    const gw = await startTestGateway({ ...NO_LIMITS, DOWNLOAD_URL_KEY: KEY, TRUSTED_PROXIES: '127.0.0.1,::1' });
    try {
      const link = await linkThrough(gw, FORWARDED);
      expect(link).toMatch(/^https:\/\/v1gate\.example\.com\/downloads\/[\w-]+$/);
      const forwarded = await linkThrough(gw, { forwarded: 'for=203.0.113.9;proto=https;host="v1.example.org:8443"' });
      expect(forwarded).toMatch(/^https:\/\/v1\.example\.org:8443\/downloads\/[\w-]+$/);
      // The path is the link: it downloads wherever v1gate is reached.
      const response = await fetch(`${gw.url}${new URL(link).pathname}`);
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    } finally {
      await gw.close();
    }
  });

  it('from any other peer the headers are ignored: the call’s own origin', async () => {
    const gw = await startTestGateway({ ...NO_LIMITS, DOWNLOAD_URL_KEY: KEY, TRUSTED_PROXIES: '10.0.0.0/8' });
    try {
      expect(await linkThrough(gw, FORWARDED)).toMatch(new RegExp(`^${gw.url}/downloads/[\\w-]+$`));
      expect(await linkThrough(gw, { forwarded: 'proto=https;host=evil.example' })).toMatch(new RegExp(`^${gw.url}/downloads/`));
    } finally {
      await gw.close();
    }
  });

  it('DOWNLOAD_BASE_URL over both', async () => {
    const gw = await startTestGateway({
      ...NO_LIMITS,
      DOWNLOAD_URL_KEY: KEY,
      TRUSTED_PROXIES: '127.0.0.1',
      DOWNLOAD_BASE_URL: 'https://files.example.com/',
    });
    try {
      expect(await linkThrough(gw, FORWARDED)).toMatch(/^https:\/\/files\.example\.com\/downloads\/[\w-]+$/);
    } finally {
      await gw.close();
    }
  });
});

const pair = { key: 'download-links-key', secret: 'download-links-secret-0123456789' };
const app = { id: 'download-links-client', secret: 'download-links-client-secret-0123' };
const processEnv = {
  ...NO_LIMITS,
  SANDBOX_RATE_LIMITS: 'off',
  SANDBOX_API_KEY: pair.key,
  SANDBOX_API_SECRET: pair.secret,
  SANDBOX_OAUTH_CLIENT_ID: app.id,
  SANDBOX_OAUTH_CLIENT_SECRET: app.secret,
  DOWNLOAD_URL_KEY: KEY,
  LOG_LEVEL: 'silent',
};

/** recording/get on a connection of its own (in a cluster, each lands on the next worker): the worker that answered and the links. */
async function getAlone(origin: string, uuid: string): Promise<{ worker: string; links: string[] }> {
  const client = new Client(origin, { pipelining: 1 });
  try {
    const form = new URLSearchParams({ api_key: pair.key, api_secret: pair.secret, meeting_id: uuid });
    const answer = await client.request({
      method: 'POST',
      path: '/v1/recording/get',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    const body = (await answer.body.json()) as { recording_files: V1File[] };
    return { worker: String(answer.headers['x-v1gate-worker']), links: body.recording_files.map((f) => f.download_url) };
  } finally {
    await client.close();
  }
}

/** The meeting uuid whose recording holds file `id`. */
async function uuidOfFile(origin: string, fileId: string): Promise<string> {
  const token = await sandboxToken(origin, pair.key, pair.secret);
  const headers = { authorization: `Bearer ${token}` };
  const me = (await (await fetch(`${origin}/v2/users/me`, { headers })).json()) as { id: string };
  const list = (await (await fetch(`${origin}/v2/users/${me.id}/recordings?from=2024-05-01&to=2024-06-30`, { headers })).json()) as {
    meetings: { uuid: string; recording_files: { id: string }[] }[];
  };
  return list.meetings.find((m) => m.recording_files.some((f) => f.id === fileId))!.uuid;
}

describe('two gateway processes sharing DOWNLOAD_URL_KEY (WORKERS=2)', () => {
  let gateway: GatewayProcess;
  beforeAll(async () => {
    gateway = await startGatewayProcess({ ...processEnv, WORKERS: '2' }, { startTimeoutMs: 60_000 });
  }, 90_000);
  afterAll(() => gateway?.kill());

  it('answer recording/get with the identical link for each file', { timeout: 60_000 }, async () => {
    const file = await recordedFileAt(gateway.url, pair, 5000);
    const uuid = await uuidOfFile(gateway.url, file.id);
    const byWorker = new Map<string, string[]>();
    for (let attempt = 0; attempt < 12 && byWorker.size < 2; attempt++) {
      const answer = await getAlone(gateway.url, uuid);
      byWorker.set(answer.worker, answer.links);
    }
    expect(byWorker.size).toBe(2);
    const [one, two] = [...byWorker.values()];
    expect(two).toEqual(one);
    expect(one).toEqual([file.link]);
  });
});

describe('a restart', () => {
  it('keeps every link: the same link answered, and the old one downloads', { timeout: 120_000 }, async () => {
    const env = { ...processEnv, SANDBOX_DATA_FILE: join(mkdtempSync(join(tmpdir(), 'v1gate-links-')), 'sandbox.json') };
    let gateway = await startGatewayProcess(env);
    let file: Awaited<ReturnType<typeof recordedFileAt>>;
    let uuid: string;
    try {
      file = await recordedFileAt(gateway.url, pair, 30_000);
      uuid = await uuidOfFile(gateway.url, file.id);
    } finally {
      await gateway.stop();
    }
    gateway = await startGatewayProcess(env);
    try {
      const path = new URL(file.link).pathname;
      const again = await getAlone(gateway.url, uuid);
      expect(again.links.map((link) => new URL(link).pathname)).toEqual([path]);
      const download = await fetch(`${gateway.url}${path}`);
      expect(download.status).toBe(200);
      expect(Buffer.from(await download.arrayBuffer()).equals(recordingBytes(file.id)(0, 29_999))).toBe(true);
    } finally {
      await gateway.stop();
    }
  });
});
