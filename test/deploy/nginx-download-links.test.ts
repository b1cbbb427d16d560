import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxToken } from '../../scripts/sandbox-token.js';
import { recordingBytes } from '../../src/sandbox/report/recording-downloads.js';
import { recordedFileAt } from '../support/process-recordings.js';
import { hasNginx, shippedNginx, type RunningNginx } from '../support/nginx.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';
import { NO_LIMITS } from '../support/v1-answers.js';

/**
 * Recording download links behind the shipped deploy/nginx/v1gate.conf, nginx ending TLS with a
 * certificate made here, the gateway trusting it (TRUSTED_PROXIES): a v1 call made over https is
 * answered with https:// links on the host and port the client used, which download through nginx.
 * (test/support/nginx.ts changes only what a machine must differ in.)
 */

const pair = { key: 'nginx-links-key', secret: 'nginx-links-secret-0123456789' };

describe.skipIf(!hasNginx)('download links behind the shipped nginx', () => {
  let gateway: GatewayProcess;
  let nginx: RunningNginx;
  let https: number;

  beforeAll(async () => {
    gateway = await startGatewayProcess({
      ...NO_LIMITS,
      SANDBOX_RATE_LIMITS: 'off',
      SANDBOX_API_KEY: pair.key,
      SANDBOX_API_SECRET: pair.secret,
      SANDBOX_OAUTH_CLIENT_ID: 'nginx-links-client',
      SANDBOX_OAUTH_CLIENT_SECRET: 'nginx-links-client-secret-0123',
      DOWNLOAD_URL_KEY: 'a-download-signing-key-of-32-chars-at-least',
      TRUSTED_PROXIES: '127.0.0.1',
      LOG_LEVEL: 'warn',
    });
    nginx = await shippedNginx(gateway.url);
    https = nginx.https;
    await nginx.start();
  }, 60_000);

  afterAll(async () => {
    await nginx?.stop();
    await gateway?.stop();
  });

  it(
    'a call over https is answered with https:// links on the host the client used, which download through nginx',
    { timeout: 60_000 },
    async () => {
      // The recording is made on the gateway itself; only the v1 call and the download go through nginx.
      const file = await recordedFileAt(gateway.url, pair, 100_000);
      const uuid = await meetingOf(file.id);
      const call = await request(`https://localhost:${https}/v1/recording/get`, {
        dispatcher: nginx.tls,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ api_key: pair.key, api_secret: pair.secret, meeting_id: uuid }).toString(),
      });
      expect(call.statusCode).toBe(200);
      const [through] = ((await call.body.json()) as { recording_files: { download_url: string }[] }).recording_files;
      const link = through!.download_url;
      expect(link).toBe(`https://localhost:${https}${new URL(file.link).pathname}`);
      const download = await request(link, { dispatcher: nginx.tls });
      expect(download.statusCode).toBe(200);
      expect(Buffer.from(await download.body.arrayBuffer()).equals(recordingBytes(file.id)(0, 99_999))).toBe(true);
    },
  );

  /** The meeting uuid whose recording holds file `id`, from the account's v2 recording list. */
  async function meetingOf(fileId: string): Promise<string> {
    const headers = { authorization: `Bearer ${await sandboxToken(gateway.url, pair.key, pair.secret)}` };
    const me = (await (await fetch(`${gateway.url}/v2/users/me`, { headers })).json()) as { id: string };
    const list = (await (await fetch(`${gateway.url}/v2/users/${me.id}/recordings?from=2024-05-01&to=2024-06-30`, { headers })).json()) as {
      meetings: { uuid: string; recording_files: { id: string }[] }[];
    };
    return list.meetings.find((m) => m.recording_files.some((f) => f.id === fileId))!.uuid;
  }
});
