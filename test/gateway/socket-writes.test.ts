import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningGateway } from '../../src/gateway.js';
import { startGatewayOver } from '../support/fault-upstream.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';
import { postV1 } from '../support/v1-form.js';
import { FUTURE } from '../support/v1-answers.js';

/**
 * What the gateway hands the kernel per message, on both of its sides: each v2 request (its head and
 * its JSON body) and each v1 answer (its head and its body) in one write, as the pass-through floor
 * does. A head written apart from its body costs a second system call and, on a real network, a
 * second packet the other side waits for.
 *
 * Counted where Node hands bytes to libuv: the socket handle's write methods, one call each per
 * `write`/`writev` system call (a whole message to loopback is never cut short by the kernel).
 */

interface Write {
  local: number | undefined;
  remote: number | undefined;
  text: string;
}

const WRITE_METHODS = ['writev', 'writeBuffer', 'writeLatin1String', 'writeUtf8String', 'writeAsciiString', 'writeUcs2String'];
type HandleWrite = (request: unknown, ...args: unknown[]) => unknown;

/** The bytes one handle write hands over: `writev`'s list (buffers, or chunk and encoding by turns), or its one chunk. */
function textOf(method: string, args: unknown[]): string {
  if (method !== 'writev') {
    const [chunk] = args as [string | Buffer];
    return typeof chunk === 'string' ? chunk : chunk.toString('latin1');
  }
  const [chunks, allBuffers] = args as [unknown[], boolean];
  if (allBuffers) return (chunks as Buffer[]).map((chunk) => chunk.toString('latin1')).join('');
  let text = '';
  for (let i = 0; i < chunks.length; i += 2) {
    const chunk = chunks[i] as string | Buffer;
    text += typeof chunk === 'string' ? Buffer.from(chunk, chunks[i + 1] as BufferEncoding).toString('latin1') : chunk.toString('latin1');
  }
  return text;
}

function recordWrites(socket: Socket, writes: Write[]): void {
  const handle = (socket as unknown as { _handle: Record<string, HandleWrite> | null })._handle;
  if (!handle) return;
  for (const method of WRITE_METHODS) {
    const original = handle[method]!;
    handle[method] = function (this: unknown, request: unknown, ...args: unknown[]) {
      writes.push({ local: socket.localPort, remote: socket.remotePort, text: textOf(method, args) });
      return original.call(this, request, ...args);
    };
  }
}

/** Every write of every socket of this process while `during` runs: clients' once connected, servers' as accepted. */
async function writesDuring(during: () => Promise<void>): Promise<Write[]> {
  const writes: Write[] = [];
  const onClient = (message: unknown) => {
    const { socket } = message as { socket: Socket };
    socket.once('connect', () => recordWrites(socket, writes));
  };
  const onServer = (message: unknown) => recordWrites((message as { socket: Socket }).socket, writes);
  subscribe('net.client.socket', onClient);
  subscribe('net.server.socket', onServer);
  try {
    await during();
  } finally {
    unsubscribe('net.client.socket', onClient);
    unsubscribe('net.server.socket', onServer);
  }
  return writes;
}

/** Whether a write holds one HTTP message whole: its head, and exactly the body its Content-Length or chunks announce. */
function isWholeMessage(text: string): boolean {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return false;
  const head = text.slice(0, end);
  const body = text.slice(end + 4);
  const length = /\r\ncontent-length: *(\d+)/i.exec(head);
  if (length) return body.length === Number(length[1]);
  if (/\r\ntransfer-encoding: *chunked/i.test(head)) return body.endsWith('0\r\n\r\n');
  return body === '';
}

let sandbox: RunningSandbox;
let gateway: RunningGateway;

beforeAll(async () => {
  sandbox = await startSandbox();
  gateway = await startGatewayOver(`${sandbox.url}/v2`);
});
afterAll(async () => {
  await gateway?.close();
  await sandbox?.close();
});

describe('one write per message', () => {
  it('sends each v2 request with its body in one write, and each v1 answer with its body in one write', async () => {
    const creds = { api_key: sandbox.sandbox.credentials.apiKey, api_secret: sandbox.sandbox.credentials.apiSecret };
    const host_id = sandbox.sandbox.master.ownerId;
    const calls = 3;
    const writes = await writesDuring(async () => {
      for (let i = 0; i < calls; i++) {
        const params = { ...creds, host_id, type: '2', topic: `One write ${i}`, start_time: FUTURE, duration: '30' };
        const answer = (await (await postV1(gateway.url, '/meeting/create', params)).json()) as { id?: unknown; error?: unknown };
        expect(answer.error, JSON.stringify(answer)).toBeUndefined();
      }
    });
    const v2Port = Number(new URL(sandbox.url).port);
    const toV2 = writes.filter((write) => write.remote === v2Port);
    const v1Answers = writes.filter((write) => write.local === gateway.port);

    const creates = toV2.filter((write) => /^POST \/v2\/users\/[^/]+\/meetings /.test(write.text));
    expect(creates).toHaveLength(calls);
    for (const [i, create] of creates.entries()) expect(create.text).toContain(`"topic":"One write ${i}"`);
    for (const write of toV2) expect(isWholeMessage(write.text), write.text).toBe(true);

    expect(v1Answers).toHaveLength(calls);
    for (const write of v1Answers) {
      expect(write.text).toMatch(/^HTTP\/1\.1 200 /);
      expect(isWholeMessage(write.text), write.text).toBe(true);
    }
  });
});
