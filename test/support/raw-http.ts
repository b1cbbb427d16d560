import { connect } from 'node:net';

/**
 * Speak raw bytes to a server, as a legacy client library does, and collect what comes back.
 * Resolves when the server closes the connection, or after `waitMs` of silence.
 */
export function rawExchange(port: number, bytes: Buffer | string, { waitMs = 1500, halfClose = false } = {}): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout;
    const finish = (closedByServer: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(parseReply(Buffer.concat(chunks), closedByServer));
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(false), waitMs);
    };
    socket.on('connect', () => {
      // `halfClose`: end the sending side after the request, as an HTTP/1.0 client marks the end of a body without a length.
      if (halfClose) socket.end(bytes);
      else socket.write(bytes);
      arm();
    });
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      arm();
    });
    socket.on('end', () => finish(true));
    socket.on('error', reject);
  });
}

export interface RawReply {
  raw: string;
  /** Responses in the order received (several on a kept-alive connection). */
  responses: { status: number; headers: Record<string, string>; body: string }[];
  /** Whether the server closed the connection (rather than us after silence). */
  closedByServer: boolean;
}

function parseReply(buffer: Buffer, closedByServer: boolean): RawReply {
  const responses: RawReply['responses'] = [];
  let rest = buffer;
  while (rest.length > 0) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd === -1) break;
    const head = rest.subarray(0, headEnd).toString('latin1').split('\r\n');
    const status = Number(head[0]!.split(' ')[1]);
    const headers: Record<string, string> = {};
    for (const line of head.slice(1)) {
      const i = line.indexOf(':');
      headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
    }
    let bodyEnd: number;
    let body: Buffer;
    if (headers['content-length'] !== undefined) {
      bodyEnd = headEnd + 4 + Number(headers['content-length']);
      body = rest.subarray(headEnd + 4, bodyEnd);
    } else if (headers['transfer-encoding'] === 'chunked') {
      const parts: Buffer[] = [];
      let at = headEnd + 4;
      for (;;) {
        const lineEnd = rest.indexOf('\r\n', at);
        const size = parseInt(rest.subarray(at, lineEnd).toString(), 16);
        at = lineEnd + 2;
        if (!size) {
          at += 2;
          break;
        }
        parts.push(rest.subarray(at, at + size));
        at += size + 2;
      }
      body = Buffer.concat(parts);
      bodyEnd = at;
    } else {
      bodyEnd = rest.length;
      body = rest.subarray(headEnd + 4);
    }
    responses.push({ status, headers, body: body.toString('utf8') });
    rest = rest.subarray(bodyEnd);
  }
  return { raw: buffer.toString('utf8'), responses, closedByServer };
}

/** A full HTTP/1.1 request as bytes; Content-Length as given (to imitate clients that miscount). */
export function httpRequest(opts: {
  path: string;
  body?: Buffer | string;
  headers?: Record<string, string>;
  contentLength?: number | null;
  method?: string;
}): Buffer {
  const body = typeof opts.body === 'string' ? Buffer.from(opts.body, 'utf8') : (opts.body ?? Buffer.alloc(0));
  const lines = [`${opts.method ?? 'POST'} ${opts.path} HTTP/1.1`, 'Host: 127.0.0.1'];
  for (const [k, v] of Object.entries(opts.headers ?? {})) lines.push(`${k}: ${v}`);
  const length = opts.contentLength === undefined ? body.length : opts.contentLength;
  if (length !== null) lines.push(`Content-Length: ${length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}
