import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { abandon } from '../shared/abandon.js';
import { busy, pooledGrowth, tooLarge, tooSlow, type BodyPool, type BodyReadError } from './body-budget.js';
import { cutBody } from './request-body.js';
import { shareConnection } from './transport-state.js';

/**
 * HTTP/1.0 clients that POST a body with no Content-Length (and no chunking, which 1.0 lacks)
 * mark its end by closing their sending side. Node's parser reads such a request as bodiless and
 * the body as garbage, so those clients' calls arrived without their fields. This reads the body
 * to the end instead, as the era's servers did, then gives the parser the request with its length.
 *
 * Only the first request line of each connection is looked at: a connection that does not start
 * with an HTTP/1.0 request is handed to Node's own parser at once, its bytes put back, and keeps
 * Node's fast path. One whose first request is such a POST is read to its end (ended by `idleMs`
 * of silence too), and Node's parser reads the rewritten request from a stream that answers
 * through the real socket. The body has the budget of any other: past `maxBytes`, or still
 * arriving `deadlineMs` after the connection's first byte, it is cut at once (nothing more kept)
 * and the request reaches the route with the reason, which the route answers (the body reader,
 * src/http/request-body.ts), closing the connection.
 */

const HEAD_END = Buffer.from('\r\n\r\n');
/** A request head is never longer than this (Node's own header limit is 16 KiB). */
const MAX_HEAD_BYTES = 16 * 1024;

export interface UnframedBodyOptions {
  /** The most bytes kept of one unframed body; past it the body is cut and refused as too large. */
  maxBytes: number;
  /** How long a client may pause, in its first line or its unframed body, before that part is taken as ended. */
  idleMs: number;
  /** The whole request must have arrived within this of the connection's first byte (V1_REQUEST_TIMEOUT_MS). */
  deadlineMs: number;
  /** The bodies the server holds at once: an unframed body takes its bytes from the pool until its connection closes. */
  bodies?: BodyPool;
}

/** Whether a request head is an HTTP/1.0 request with a body but no way to frame it. */
export function isUnframedHttp10Body(head: string): boolean {
  const [requestLine = '', ...fields] = head.split('\r\n');
  if (!/^(POST|PUT|PATCH) \S+ HTTP\/1\.0$/i.test(requestLine)) return false;
  return !fields.some((field) => /^(content-length|transfer-encoding)\s*:/i.test(field));
}

/** The same request with the Content-Length of the body that followed it. */
export function withContentLength(head: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${head}\r\nContent-Length: ${body.length}\r\n\r\n`, 'latin1'), body]);
}

export function readUnframedBodies(server: Server, options: UnframedBodyOptions): void {
  const httpListeners = server.listeners('connection') as ((socket: Duplex) => void)[];
  server.removeAllListeners('connection');
  const handOver = (stream: Duplex) => {
    for (const listener of httpListeners) listener.call(server, stream);
  };
  server.on('connection', (socket: Socket) => watchFirstRequest(socket, options, handOver));
}

function watchFirstRequest(socket: Socket, options: UnframedBodyOptions, handOver: (stream: Duplex) => void): void {
  let seen: Buffer = Buffer.alloc(0);
  const connectedAt = Date.now();
  const stopWatching = () => {
    clearTimeout(patience);
    socket.off('data', onFirstBytes);
    socket.off('end', onEarlyEnd);
    socket.off('error', onEarlyError);
  };
  // The bytes as Node's parser would have had them: its own limits and deadlines then apply.
  const handOverAsIs = () => {
    stopWatching();
    socket.pause();
    if (seen.length > 0) socket.unshift(seen);
    handOver(socket);
    socket.resume();
  };
  const onFirstBytes = (chunk: Buffer) => {
    seen = seen.length === 0 ? chunk : Buffer.concat([seen, chunk]);
    const lineEnd = seen.indexOf('\r\n');
    if (lineEnd !== -1 && !/ HTTP\/1\.0$/i.test(seen.subarray(0, lineEnd).toString('latin1'))) return handOverAsIs();
    const headEnd = lineEnd === -1 ? -1 : seen.indexOf(HEAD_END);
    if (headEnd === -1) {
      if (seen.length >= MAX_HEAD_BYTES) handOverAsIs();
      return; // the head is still coming
    }
    const head = seen.subarray(0, headEnd).toString('latin1');
    if (!isUnframedHttp10Body(head)) return handOverAsIs();
    stopWatching();
    readToEnd(socket, head, seen.subarray(headEnd + HEAD_END.length), options, connectedAt + options.deadlineMs, (request, cut) => {
      const stream = replayStream(socket, request);
      if (cut) cutBody(stream, cut);
      handOver(stream);
    });
  };
  // A client that closes before finishing its head: Node's parser answers what it got.
  const onEarlyEnd = () => {
    stopWatching();
    handOver(replayStream(socket, seen));
  };
  const onEarlyError = () => {
    stopWatching();
    abandon(socket);
  };
  // A client that drips its head is handed over, to meet Node's header deadline.
  const patience = setTimeout(handOverAsIs, options.idleMs);
  socket.on('data', onFirstBytes);
  socket.once('end', onEarlyEnd);
  socket.once('error', onEarlyError);
}

function readToEnd(
  socket: Socket,
  head: string,
  first: Buffer,
  options: UnframedBodyOptions,
  deadlineAt: number,
  done: (request: Buffer, cut: BodyReadError | undefined) => void,
): void {
  const chunks = [first];
  let size = first.length;
  let pooled = 0;
  let idle: NodeJS.Timeout | undefined;
  const release = () => {
    options.bodies?.give(pooled);
    pooled = 0;
  };
  // Held until the connection (which carries this one request) closes: the bytes live on in the request handed over.
  socket.once('close', release);
  const stop = () => {
    clearTimeout(idle);
    clearTimeout(deadline);
    socket.off('data', onData);
    socket.off('end', finish);
  };
  const finish = () => {
    stop();
    done(withContentLength(head, Buffer.concat(chunks)), undefined);
  };
  // A cut body reaches the route as an empty one with the reason: the route refuses it without reading.
  const cut = (error: BodyReadError) => {
    stop();
    chunks.length = 0;
    release();
    done(withContentLength(head, Buffer.alloc(0)), error);
  };
  /** Takes the pool bytes of a body grown by `bytes`; false when the pool has no room. */
  const took = (bytes: number) => {
    const growth = pooledGrowth(size - bytes, size);
    if (!options.bodies || growth === 0) return true;
    if (!options.bodies.take(growth)) return false;
    pooled += growth;
    return true;
  };
  const arm = () => {
    clearTimeout(idle);
    idle = setTimeout(finish, options.idleMs);
  };
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > options.maxBytes) return cut(tooLarge(options.maxBytes));
    if (!took(chunk.length)) return cut(busy(options.bodies!));
    chunks.push(chunk);
    arm();
  };
  const deadline = setTimeout(() => cut(tooSlow(options.deadlineMs)), Math.max(0, deadlineAt - Date.now()));
  socket.on('data', onData);
  socket.once('end', finish);
  socket.on('error', () => abandon(socket));
  if (size > options.maxBytes) cut(tooLarge(options.maxBytes));
  else if (!took(size)) cut(busy(options.bodies!));
  else arm();
}

/**
 * A stream that gives Node's parser `request`, and writes the answer to the real
 * socket; the two close together. It carries the socket's addresses (loopback checks, logs).
 * Bytes a client sends after its request are dropped, as a 1.0 connection carries one request.
 */
function replayStream(socket: Socket, request: Buffer): Duplex {
  const stream = new Duplex({
    read() {},
    write(chunk: Buffer, encoding, callback) {
      socket.write(chunk, encoding, callback);
    },
    final(callback) {
      // The connection carried its one request: closed now, whatever the client still sends.
      socket.destroySoon();
      callback();
    },
    destroy(error, callback) {
      abandon(socket);
      callback(error);
    },
  });
  // One connection, whichever of the two a reader holds: the parser's stream or the socket.
  shareConnection(stream, socket);
  for (const name of ['remoteAddress', 'remotePort', 'remoteFamily', 'localAddress', 'localPort'] as const) {
    Object.defineProperty(stream, name, { get: () => socket[name] });
  }
  socket.once('close', () => abandon(stream));
  socket.on('data', () => {});
  // No end pushed: Node reads a client's end as giving up and drops its request; the stream
  // ends with the socket, after Node answers (HTTP/1.0: then closes).
  stream.push(request);
  return stream;
}
