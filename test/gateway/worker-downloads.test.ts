import { Client } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingBytes } from '../../src/sandbox/report/recording-downloads.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';
import { NO_LIMITS } from '../support/v1-answers.js';

/**
 * WORKERS=2 over the embedded sandbox, which runs in the primary: a download link is served by
 * whichever worker the client's connection lands on, not only the one that answered the v1 call
 * that carried it. The pair here is no credential map's: the worker finds the account's OAuth app
 * in the primary's sandbox account list, on the download path as on the v1 path.
 */

const pair = { key: 'worker-download-key', secret: 'worker-download-secret-0123456789' };
const app = { id: 'worker-download-client', secret: 'worker-download-client-secret-0123' };
const FILE_BYTES = 256 * 1024 + 3;
let gateway: GatewayProcess;

beforeAll(async () => {
  gateway = await startGatewayProcess(
    {
      ...NO_LIMITS,
      WORKERS: '2',
      SANDBOX_RATE_LIMITS: 'off',
      SANDBOX_API_KEY: pair.key,
      SANDBOX_API_SECRET: pair.secret,
      SANDBOX_OAUTH_CLIENT_ID: app.id,
      SANDBOX_OAUTH_CLIENT_SECRET: app.secret,
      DOWNLOAD_URL_KEY: 'a-download-signing-key-of-32-chars-at-least',
      LOG_LEVEL: 'silent',
    },
    { startTimeoutMs: 60_000 },
  );
}, 90_000);
afterAll(() => gateway?.kill());

/**
 * A download on a connection of its own, which the cluster hands to the next worker. A streamed
 * file carries no worker tag, so /readyz asks first on the same kept-alive connection: its tag
 * names the worker that then serves the file.
 */
async function downloadAlone(link: string): Promise<{ status: number; worker: string; body: Buffer }> {
  const client = new Client(gateway.url, { pipelining: 1 });
  try {
    const ready = await client.request({ method: 'GET', path: '/readyz' });
    await ready.body.dump();
    const file = await client.request({ method: 'GET', path: new URL(link).pathname });
    const body = Buffer.from(await file.body.arrayBuffer());
    return { status: file.statusCode, worker: String(ready.headers['x-v1gate-worker']), body };
  } finally {
    await client.close();
  }
}

/** A v2 call to the primary's sandbox (through a worker's forward) with the account's access token. */
async function v2(token: string, method: string, path: string, body?: unknown): Promise<any> {
  const answer = await fetch(`${gateway.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return answer.json();
}

async function accessToken(): Promise<string> {
  const accounts = (await (await fetch(`${gateway.url}/sandbox/accounts`)).json()) as { accounts: { id: string; api_key: string }[] };
  const accountId = accounts.accounts.find((a) => a.api_key === pair.key)!.id;
  const issued = await fetch(`${gateway.url}/oauth/token?grant_type=account_credentials&account_id=${accountId}`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${app.id}:${app.secret}`).toString('base64')}` },
  });
  return ((await issued.json()) as { access_token: string }).access_token;
}

describe('WORKERS=2: a download link of an unmapped pair', () => {
  it('made by one worker downloads through either worker, every byte', async () => {
    const token = await accessToken();
    const host = (await v2(token, 'GET', '/v2/users/me')).id as string;
    const meeting = await v2(token, 'POST', `/v2/users/${host}/meetings`, {
      topic: 'Recorded',
      type: 2,
      start_time: '2024-06-01T08:00:00Z',
      duration: 30,
    });
    const happened = await v2(token, 'POST', `/sandbox/meetings/${meeting.id}/happen`, {
      start_time: '2024-06-01T08:00:00Z',
      duration_minutes: 30,
      recording: { files: [{ file_type: 'MP4', file_size: FILE_BYTES }] },
    });
    const form = new URLSearchParams({ api_key: pair.key, api_secret: pair.secret, meeting_id: happened.uuid });
    const got = await fetch(`${gateway.url}/v1/recording/get`, { method: 'POST', body: form });
    const maker = got.headers.get('x-v1gate-worker');
    const file = ((await got.json()) as { recording_files: { id: string; download_url: string }[] }).recording_files[0]!;
    expect(file.download_url.startsWith(`${gateway.url}/downloads/`)).toBe(true);
    const bytes = recordingBytes(file.id)(0, FILE_BYTES - 1);

    // Connections go to the workers in turn: a few downloads reach both, each checked whole.
    const servedBy = new Set<string>();
    for (let attempt = 0; attempt < 12 && servedBy.size < 2; attempt++) {
      const download = await downloadAlone(file.download_url);
      expect(download.status, `worker ${download.worker}: ${download.body.subarray(0, 200).toString()}`).toBe(200);
      expect(download.body.equals(bytes)).toBe(true);
      servedBy.add(download.worker);
    }
    expect(servedBy.size).toBe(2);
    expect(servedBy.has(maker!)).toBe(true);
  });
});
