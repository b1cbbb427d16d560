import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';

/**
 * The shipped deploy/nginx/v1gate.conf run by a real nginx in front of a gateway, ending TLS with a
 * certificate made here. Only what a machine must differ in is changed: the certificate paths, the
 * ports (loopback only: this machine may have no IPv6), the gateway's address; a test may name
 * further edits (`edits`), each a literal text of the file and what replaces it, and each must be found.
 */

export const NGINX_CONF = fileURLToPath(new URL('../../deploy/nginx/v1gate.conf', import.meta.url));
export const hasNginx = spawnSync('nginx', ['-v']).status === 0;

export interface RunningNginx {
  /** The plain-HTTP port (the shipped config's `listen 80`). */
  http: number;
  /** The TLS port (its `listen 443 ssl http2`). */
  https: number;
  /** The folder holding the config, the certificate and nginx's own error log. */
  dir: string;
  /** An undici dispatcher that trusts the certificate (its name: localhost). */
  tls: Agent;
  /** The certificate, for clients other than undici's. */
  cert: Buffer;
  /** `nginx -t` on the written config: its status and what it said. */
  check(): { status: number | null; stderr: string };
  /** Start nginx in the foreground and wait until /healthz answers 200 through it. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The shipped site with this machine's ports, certificate and gateway, and the test's `edits`. */
function siteFor(dir: string, gatewayHost: string, ports: { http: number; https: number }, edits: readonly [string, string][]): string {
  let site = readFileSync(NGINX_CONF, 'utf8')
    .replace(/^\s*listen \[::\]:.*\n/gm, '')
    .replace('listen 80;', `listen 127.0.0.1:${ports.http};`)
    .replace('listen 443 ssl http2;', `listen 127.0.0.1:${ports.https} ssl http2;`)
    .replace('server 127.0.0.1:8080;', `server ${gatewayHost};`)
    .replace('/etc/letsencrypt/live/v1gate.example.com/fullchain.pem', join(dir, 'cert.pem'))
    .replace('/etc/letsencrypt/live/v1gate.example.com/privkey.pem', join(dir, 'key.pem'));
  for (const [from, to] of edits) {
    if (!site.includes(from)) throw new Error(`deploy/nginx/v1gate.conf no longer holds ${JSON.stringify(from)}`);
    site = site.replace(from, to);
  }
  return site;
}

/** Write the config for a gateway at `gatewayUrl`; start() runs it. */
export async function shippedNginx(gatewayUrl: string, edits: readonly [string, string][] = []): Promise<RunningNginx> {
  const dir = mkdtempSync(join(tmpdir(), 'v1gate-nginx-'));
  mkdirSync(join(dir, 'logs'));
  const made = spawnSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost'],
      // The shipped server_name too, for clients that call it by that name.
      ...['-addext', 'subjectAltName=DNS:localhost,DNS:v1gate.example.com', '-keyout', 'key.pem', '-out', 'cert.pem'],
    ],
    { cwd: dir, encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`);
  const ports = { http: await freePort(), https: await freePort() };
  writeFileSync(join(dir, 'site.conf'), siteFor(dir, new URL(gatewayUrl).host, ports, edits));
  writeFileSync(
    join(dir, 'nginx.conf'),
    `pid ${dir}/nginx.pid;\nerror_log ${dir}/logs/error.log;\nevents {}\nhttp {\n  access_log off;\n  include ${dir}/site.conf;\n}\n`,
  );
  const cert = readFileSync(join(dir, 'cert.pem'));
  const tls = new Agent({ connect: { ca: cert, servername: 'localhost' } });
  let nginx: ChildProcess | undefined;
  const args = ['-c', join(dir, 'nginx.conf'), '-p', dir];
  return {
    ...ports,
    dir,
    tls,
    cert,
    check: () => {
      const test = spawnSync('nginx', ['-t', ...args], { encoding: 'utf8' });
      return { status: test.status, stderr: test.stderr };
    },
    start: async () => {
      nginx = spawn('nginx', [...args, '-g', 'daemon off;'], { stdio: 'ignore' });
      let health: number | undefined;
      for (let waited = 0; waited < 10_000 && health !== 200; waited += 100) {
        health = await request(`https://localhost:${ports.https}/healthz`, { dispatcher: tls }).then(
          async (r) => (await r.body.dump(), r.statusCode),
          () => undefined,
        );
        if (health !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      if (health !== 200) throw new Error(`nginx did not pass /healthz on in 10 s: ${readFileSync(join(dir, 'logs/error.log'), 'utf8')}`);
    },
    stop: async () => {
      if (nginx && nginx.exitCode === null) {
        const exited = new Promise((resolve) => nginx!.once('exit', resolve));
        nginx.kill('SIGQUIT');
        await exited;
      }
      await tls.close();
    },
  };
}
