import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxToken } from '../../scripts/sandbox-token.js';
import { recordingBytes } from '../../src/sandbox/report/recording-downloads.js';
import { recordedFileAt } from '../support/process-recordings.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';
import { NO_LIMITS } from '../support/v1-answers.js';

/**
 * Recording download links behind the shipped deploy/nginx/v1gate.conf, nginx ending TLS with a
 * certificate made here, the gateway trusting it (TRUSTED_PROXIES): a v1 call made over https is
 * answered with https:// links on the host and port the client used, which download through nginx.
 * Only what a machine must differ in is changed: the certificate paths, the ports, the gateway's address.
 */

const CONF = fileURLToPath(new URL('../../deploy/nginx/v1gate.conf', import.meta.url));
const hasNginx = spawnSync('nginx', ['-v']).status === 0;
const pair = { key: 'nginx-links-key', secret: 'nginx-links-secret-0123456789' };

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.skipIf(!hasNginx)('download links behind the shipped nginx', () => {
  let dir: string;
  let gateway: GatewayProcess;
  let nginx: ChildProcess | undefined;
  let https: number;
  let tls: Agent;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'v1gate-nginx-links-'));
    mkdirSync(join(dir, 'logs'));
    const cert = spawnSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-keyout', 'key.pem', '-out', 'cert.pem'],
      { cwd: dir, encoding: 'utf8' },
    );
    expect(cert.status, cert.stderr).toBe(0);
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
    const http = await freePort();
    https = await freePort();
    const site = readFileSync(CONF, 'utf8')
      .replace(/^\s*listen \[::\]:.*\n/gm, '') // this machine may have no IPv6
      .replace('listen 80;', `listen 127.0.0.1:${http};`)
      .replace('listen 443 ssl http2;', `listen 127.0.0.1:${https} ssl http2;`)
      .replace('server 127.0.0.1:8080;', `server ${new URL(gateway.url).host};`)
      .replace('/etc/letsencrypt/live/v1gate.example.com/fullchain.pem', join(dir, 'cert.pem'))
      .replace('/etc/letsencrypt/live/v1gate.example.com/privkey.pem', join(dir, 'key.pem'));
    writeFileSync(join(dir, 'site.conf'), site);
    writeFileSync(
      join(dir, 'nginx.conf'),
      `pid ${dir}/nginx.pid;\nerror_log ${dir}/logs/error.log;\nevents {}\nhttp {\n  access_log off;\n  include ${dir}/site.conf;\n}\n`,
    );
    tls = new Agent({ connect: { ca: readFileSync(join(dir, 'cert.pem')), servername: 'localhost' } });
    nginx = spawn('nginx', ['-c', join(dir, 'nginx.conf'), '-p', dir, '-g', 'daemon off;'], { stdio: 'ignore' });
    let health: number | undefined;
    for (let waited = 0; waited < 10_000 && health !== 200; waited += 100) {
      health = await request(`https://localhost:${https}/healthz`, { dispatcher: tls }).then(
        async (r) => (await r.body.dump(), r.statusCode),
        () => undefined,
      );
      if (health !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(health).toBe(200);
  }, 60_000);

  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((resolve) => nginx!.once('exit', resolve));
      nginx.kill('SIGQUIT');
      await exited;
    }
    await gateway?.stop();
    await tls?.close();
  });

  it(
    'a call over https is answered with https:// links on the host the client used, which download through nginx',
    { timeout: 60_000 },
    async () => {
      // The recording is made on the gateway itself; only the v1 call and the download go through nginx.
      const file = await recordedFileAt(gateway.url, pair, 100_000);
      const uuid = await meetingOf(file.id);
      const call = await request(`https://localhost:${https}/v1/recording/get`, {
        dispatcher: tls,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ api_key: pair.key, api_secret: pair.secret, meeting_id: uuid }).toString(),
      });
      expect(call.statusCode).toBe(200);
      const [through] = ((await call.body.json()) as { recording_files: { download_url: string }[] }).recording_files;
      const link = through!.download_url;
      expect(link).toBe(`https://localhost:${https}${new URL(file.link).pathname}`);
      const download = await request(link, { dispatcher: tls });
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
