import { Client } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingBytes } from '../../src/sandbox/report/recording-downloads.js';
import { startGatewayProcess, twoWorkersOverSandbox, type GatewayProcess } from '../support/process-gateway.js';
import { recordedFileAt } from '../support/process-recordings.js';

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
      ...twoWorkersOverSandbox(pair),
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

describe('WORKERS=2: a download link of an unmapped pair', () => {
  it('made by one worker downloads through either worker, every byte', async () => {
    const file = await recordedFileAt(gateway.url, pair, FILE_BYTES);
    expect(file.link.startsWith(`${gateway.url}/downloads/`)).toBe(true);
    const bytes = recordingBytes(file.id)(0, FILE_BYTES - 1);

    // Connections go to the workers in turn: a few downloads reach both, each checked whole.
    const servedBy = new Set<string>();
    for (let attempt = 0; attempt < 12 && servedBy.size < 2; attempt++) {
      const download = await downloadAlone(file.link);
      expect(download.status, `worker ${download.worker}: ${download.body.subarray(0, 200).toString()}`).toBe(200);
      expect(download.body.equals(bytes)).toBe(true);
      servedBy.add(download.worker);
    }
    expect(servedBy.size).toBe(2);
    expect(servedBy.has(file.worker!)).toBe(true);
  });
});
