import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';

/**
 * deploy/nginx/v1gate.conf, where nginx is installed (CI installs nginx-light): `nginx -t`, then a
 * real nginx ending TLS in front of a running gateway, with a certificate made here. Only what a
 * machine must differ in is changed: the certificate paths, the ports, the gateway's address.
 */

const CONF = fileURLToPath(new URL('../../deploy/nginx/v1gate.conf', import.meta.url));
const hasNginx = spawnSync('nginx', ['-v']).status === 0;
if (!hasNginx) console.warn("deploy/nginx: nginx not found, its checks are skipped here: install Debian's `nginx-light` (.ci/run does).");

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.skipIf(!hasNginx)('nginx in front of the gateway', () => {
  let dir: string;
  let gateway: GatewayProcess;
  let nginx: ChildProcess | undefined;
  let ports: { http: number; https: number };
  let tls: Agent;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'v1gate-nginx-'));
    mkdirSync(join(dir, 'logs'));
    const cert = spawnSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-keyout', 'key.pem', '-out', 'cert.pem'],
      { cwd: dir, encoding: 'utf8' },
    );
    expect(cert.status, cert.stderr).toBe(0);
    gateway = await startGatewayProcess({ LOG_LEVEL: 'warn', V1_RATE_LIMITS: 'off', V2_RATE_LIMITS: 'off' });
    ports = { http: await freePort(), https: await freePort() };
    const site = readFileSync(CONF, 'utf8')
      .replace(/^\s*listen \[::\]:.*\n/gm, '') // this machine may have no IPv6
      .replace('listen 80;', `listen 127.0.0.1:${ports.http};`)
      .replace('listen 443 ssl http2;', `listen 127.0.0.1:${ports.https} ssl http2;`)
      .replace('server 127.0.0.1:8080;', `server ${new URL(gateway.url).host};`)
      .replace('/etc/letsencrypt/live/v1gate.example.com/fullchain.pem', join(dir, 'cert.pem'))
      .replace('/etc/letsencrypt/live/v1gate.example.com/privkey.pem', join(dir, 'key.pem'));
    writeFileSync(join(dir, 'site.conf'), site);
    writeFileSync(
      join(dir, 'nginx.conf'),
      `pid ${dir}/nginx.pid;\nerror_log ${dir}/logs/error.log;\nevents {}\nhttp {\n  access_log off;\n  include ${dir}/site.conf;\n}\n`,
    );
    tls = new Agent({ connect: { ca: readFileSync(join(dir, 'cert.pem')), servername: 'localhost' } });
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

  it('passes nginx -t', () => {
    const test = spawnSync('nginx', ['-t', '-c', join(dir, 'nginx.conf'), '-p', dir], { encoding: 'utf8' });
    expect(test.stderr).toContain('test is successful');
    expect(test.status).toBe(0);
  });

  it('serves v1 calls over TLS, and sends plain-HTTP callers to https with their method kept', { timeout: 60_000 }, async () => {
    nginx = spawn('nginx', ['-c', join(dir, 'nginx.conf'), '-p', dir, '-g', 'daemon off;'], { stdio: 'ignore' });
    const base = `https://127.0.0.1:${ports.https}`;
    let health: number | undefined;
    for (let waited = 0; waited < 10_000 && health !== 200; waited += 100) {
      health = await request(`${base}/healthz`, { dispatcher: tls }).then(
        async (r) => (await r.body.dump(), r.statusCode),
        () => undefined,
      );
      if (health !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(health).toBe(200);

    const banner = gateway.output();
    const apiKey = /sandbox API key: +(\S+)/.exec(banner)![1]!;
    const apiSecret = /sandbox API secret: +(\S+)/.exec(banner)![1]!;
    const call = await request(`${base}/v1/user/getbyemail`, {
      dispatcher: tls,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ api_key: apiKey, api_secret: apiSecret, email: 'owner@sandbox.v1gate.local' }).toString(),
    });
    expect(call.statusCode).toBe(200);
    expect(await call.body.json()).toMatchObject({ email: 'owner@sandbox.v1gate.local' });

    const plain = await request(`http://127.0.0.1:${ports.http}/v1/user/getbyemail?x=1`, { method: 'POST', body: 'a=1' });
    await plain.body.dump();
    expect(plain.statusCode).toBe(308);
    expect(plain.headers.location).toBe(`https://127.0.0.1/v1/user/getbyemail?x=1`);
  });
});
