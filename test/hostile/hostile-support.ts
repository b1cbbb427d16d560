import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';

/**
 * What the adversarial tests do to a gateway on raw sockets: drip a request a few bytes at a time,
 * push a huge body as fast as the gateway takes it, and read a process's memory from /proc.
 */

/**
 * A gateway process's settings for an attack on it: no log lines, and no rate limit on either side
 * or in its sandbox, so what is measured is what the attack costs, never a limiter's refusal; the
 * sandbox's key and secret when the test calls as its owner.
 */
export function unlimited(owner?: { key: string; secret: string }): Record<string, string> {
  return {
    LOG_LEVEL: 'silent',
    SANDBOX_RATE_LIMITS: 'off',
    V1_RATE_LIMITS: 'off',
    V2_RATE_LIMITS: 'off',
    ...(owner ? { SANDBOX_API_KEY: owner.key, SANDBOX_API_SECRET: owner.secret } : {}),
  };
}

/** A process's resident memory now and at its peak, in MiB (Linux /proc/<pid>/status). */
export function memoryOf(pid: number): { rssMiB: number; peakMiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
}

export interface ConnectionEnd {
  /** Everything the server sent. */
  reply: string;
  /** Milliseconds from the first byte sent to the connection's end. */
  afterMs: number;
  /** Whether the server ended the connection (rather than the test giving up). */
  closedByServer: boolean;
  /** Bytes the client managed to hand to the connection. */
  bytesSent: number;
}

function opened(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Collects a connection's reply until it ends, or until `giveUpMs` pass (then it is destroyed). */
function watch(socket: Socket, giveUpMs: number): { ended: Promise<ConnectionEnd>; startedAt: number } {
  const startedAt = Date.now();
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<ConnectionEnd>((resolve) => {
    let closedByServer = true;
    const timer = setTimeout(() => {
      closedByServer = false;
      socket.destroy();
    }, giveUpMs);
    socket.on('error', () => {});
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({
        reply: Buffer.concat(chunks).toString('latin1'),
        afterMs: Date.now() - startedAt,
        closedByServer,
        bytesSent: socket.bytesWritten,
      });
    });
  });
  return { ended, startedAt };
}

/**
 * Sends `head`, then `drop` every `everyMs` for as long as the connection stays open: a slow-drip
 * client. Resolves when the server ends the connection, or after `giveUpMs`.
 */
export async function drip(port: number, head: string, drop: string, everyMs: number, giveUpMs: number): Promise<ConnectionEnd> {
  const socket = await opened(port);
  const { ended } = watch(socket, giveUpMs);
  socket.write(head);
  const timer = setInterval(() => {
    if (socket.writable) socket.write(drop);
  }, everyMs);
  const end = await ended;
  clearInterval(timer);
  return end;
}

/**
 * Sends `head`, then up to `totalBytes` of body in 64 KiB chunks as fast as the connection takes
 * them (chunked framing when `chunked`), stopping when the server ends the connection. Resolves
 * with what came back and how much the client managed to send.
 */
export async function push(
  port: number,
  head: string,
  totalBytes: number,
  options: { chunked?: boolean; giveUpMs?: number } = {},
): Promise<ConnectionEnd> {
  const socket = await opened(port);
  const { ended } = watch(socket, options.giveUpMs ?? 60_000);
  let open = true;
  void ended.then(() => (open = false));
  const piece = Buffer.alloc(64 * 1024, 'a');
  const framed = options.chunked ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]) : piece;
  socket.write(head);
  for (let sent = 0; sent < totalBytes && open && socket.writable; sent += piece.length) {
    if (!socket.write(framed)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          socket.off('drain', done);
          socket.off('close', done);
          resolve();
        };
        socket.on('drain', done);
        socket.on('close', done);
      });
    }
  }
  if (open && socket.writable) socket.end(options.chunked ? '0\r\n\r\n' : '');
  return ended;
}

/**
 * Sends `head` alone, as a client that declared a body and waits to hear whether to send it, and
 * reads until the first answer is whole; then leaves. Undefined when none came within `giveUpMs`.
 */
export async function answerToHead(port: number, head: string, giveUpMs = 30_000): Promise<{ status: number; body: unknown } | undefined> {
  const socket = await opened(port);
  socket.on('error', () => {});
  let reply = '';
  const answer = await new Promise<{ status: number; body: unknown } | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), giveUpMs);
    const done = (value: { status: number; body: unknown } | undefined) => {
      clearTimeout(timer);
      resolve(value);
    };
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString('latin1');
      if (answerIsWhole(reply)) done(firstAnswer(reply));
    });
    socket.once('close', () => done(answerIsWhole(reply) ? firstAnswer(reply) : undefined));
    socket.write(head);
  });
  socket.destroy();
  return answer;
}

function answerIsWhole(reply: string): boolean {
  const headEnd = reply.indexOf('\r\n\r\n');
  const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(reply.slice(0, Math.max(0, headEnd)))?.[1] ?? NaN);
  return headEnd !== -1 && Number.isFinite(length) && Buffer.byteLength(reply, 'latin1') >= headEnd + 4 + length;
}

/** The JSON body of the first HTTP answer in a raw reply, with its status (undefined when none came). */
export function firstAnswer(reply: string): { status: number; body: unknown } | undefined {
  const headEnd = reply.indexOf('\r\n\r\n');
  if (headEnd === -1) return undefined;
  const status = Number(reply.slice(0, headEnd).split(' ')[1]);
  const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(reply.slice(0, headEnd))?.[1] ?? NaN);
  const text = reply.slice(headEnd + 4, Number.isFinite(length) ? headEnd + 4 + length : undefined);
  return { status, body: JSON.parse(text) as unknown };
}

/** The head of a request (ends with the blank line). */
export function head(requestLine: string, fields: Record<string, string | number> = {}): string {
  return `${[requestLine, ...Object.entries(fields).map(([name, value]) => `${name}: ${value}`)].join('\r\n')}\r\n\r\n`;
}
