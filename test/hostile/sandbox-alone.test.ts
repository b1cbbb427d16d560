import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rememberSecret } from '../support/gateway.js';
import { memoryOf } from './hostile-support.js';

/**
 * `npm run sandbox` serves the sandbox alone to anyone who reaches its port; its `/oauth/token`
 * reads a body before it knows the client. Run as npm runs it (`node dist/src/cli/sandbox.js`),
 * flooded with 4 MiB bodies left one byte short, all held open at once: what they hold together
 * stays bounded, however many connections hold them (100 took the process from 72 to 446 MiB
 * before the bound), and a client with the app's secret is served after. The bounds are the
 * gateway's server's, under the gateway's settings: a smaller V1_MAX_BODY_BYTES refuses a body.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const APP = { id: 'sandbox-alone-client', secret: 'sandbox-alone-client-secret-0123456789' };
const BODY_BYTES = 4 * 1024 * 1024 - 1024;
const CONNECTIONS = 150;
/**
 * The pool of bodies (64 MiB), the bodies refused as busy read and thrown away, each connection's
 * stream buffers, and what a loaded machine's collector has not given back: +105 to +140 MiB is
 * seen, where unbounded the same 150 bodies would hold over 550 MiB (100 held 374).
 */
const GROWTH_BOUND_MIB = 256;

let child: ChildProcess;
let port: number;

/** `npm run sandbox` as its own process with `env`, and the port it listens on. */
async function startAlone(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const alone = spawn(process.execPath, ['dist/src/cli/sandbox.js'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const at = await new Promise<number>((resolve, reject) => {
    alone.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /v2 sandbox on http:\/\/\S+:(\d+)\/v2/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    alone.once('exit', (code) => reject(new Error(`npm run sandbox exited with ${code}: ${output}`)));
  });
  return { child: alone, port: at };
}

beforeAll(async () => {
  rememberSecret(APP.secret);
  ({ child, port } = await startAlone({ SANDBOX_OAUTH_CLIENT_ID: APP.id, SANDBOX_OAUTH_CLIENT_SECRET: APP.secret }));
}, 30_000);
afterAll(() => {
  child?.kill('SIGKILL');
});

/** A connection that sends a form to /oauth/token one byte short of its Content-Length, then waits; resolved once all but that byte is written or the server ends it. */
function heldBody(): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const piece = Buffer.alloc(64 * 1024, 'a');
    socket.on('error', () => resolve(socket));
    socket.once('close', () => resolve(socket));
    const send = async () => {
      socket.write(
        `POST /oauth/token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${BODY_BYTES + 1}\r\n\r\n`,
      );
      for (let sent = 0; sent < BODY_BYTES && socket.writable; sent += piece.length) {
        const chunk = piece.subarray(0, Math.min(piece.length, BODY_BYTES - sent));
        if (!socket.write(chunk)) await new Promise((done) => socket.once('drain', done).once('close', done));
      }
      resolve(socket);
    };
    socket.once('connect', () => void send());
  });
}

describe('`npm run sandbox` under bodies held open', () => {
  it('holds at most its pool of bodies however many connections send them, then serves the app’s client', async () => {
    const before = memoryOf(child.pid!);
    const sockets = await Promise.all(Array.from({ length: CONNECTIONS }, () => heldBody()));
    const growth = memoryOf(child.pid!).peakMiB - before.peakMiB;
    for (const socket of sockets) socket.destroy();
    console.log(`${CONNECTIONS} bodies of 4 MiB held at npm run sandbox: peak memory +${growth.toFixed(1)} MiB`);
    expect(growth).toBeLessThan(GROWTH_BOUND_MIB);

    const basic = `Basic ${Buffer.from(`${APP.id}:${APP.secret}`).toString('base64')}`;
    const accounts = await fetch(`http://127.0.0.1:${port}/sandbox/accounts`);
    const account = ((await accounts.json()) as { accounts: { id: string }[] }).accounts[0]!.id;
    const token = await fetch(`http://127.0.0.1:${port}/oauth/token?grant_type=account_credentials&account_id=${account}`, {
      method: 'POST',
      headers: { authorization: basic },
    });
    expect(token.status).toBe(200);
  }, 120_000);
});

describe('`npm run sandbox` under the gateway’s server settings', () => {
  it('refuses a body past V1_MAX_BODY_BYTES before reading the client, and closes the connection', async () => {
    const small = await startAlone({ V1_MAX_BODY_BYTES: '1024' });
    try {
      const basic = `Basic ${Buffer.from('no-such-client:no-such-secret').toString('base64')}`;
      const token = await fetch(`http://127.0.0.1:${small.port}/oauth/token?grant_type=account_credentials&account_id=x`, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
        body: `padding=${'a'.repeat(2048)}`,
      });
      expect(token.status).toBe(413);
      expect(token.headers.get('connection')).toBe('close');
      expect(await token.json()).toMatchObject({ message: 'The request body is larger than the 1024 bytes v1gate accepts.' });
    } finally {
      small.child.kill('SIGKILL');
    }
  }, 30_000);
});
