import { createServer, request as forwardRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { loadConfig } from '../../src/config.js';
import { startGateway, type RunningGateway } from '../../src/gateway.js';

/**
 * A v2 service with faults: a real HTTP proxy in front of a real sandbox that, for the requests
 * a rule matches, delays, hangs, resets, answers an error of its own, or lets the sandbox apply
 * the request and then answers something else. Everything else passes through untouched, so the
 * sandbox's state stays the truth the tests check the v1 answers against.
 */

export type Fault =
  | { kind: 'delay'; ms: number }
  /** Never answer; the connection stays open until the client gives up. */
  | { kind: 'hang' }
  /** Close the connection without answering; the request never reaches the sandbox. */
  | { kind: 'reset' }
  /** The sandbox applies the request; its answer is replaced by a reset halfway through the body. */
  | { kind: 'reset-after-apply' }
  /** Answer this without asking the sandbox (a 5xx page, a 429 storm, garbage, a wrong shape, a huge body). */
  | { kind: 'answer'; status: number; body?: string | Buffer; headers?: Record<string, string>; repeatBodyTimes?: number }
  /** Half a status line and header, then a reset: the answer's head never ends. */
  | { kind: 'reset-mid-headers' }
  /** Bytes that are no HTTP at all, then the end of the connection. */
  | { kind: 'garbage' }
  /** A 200's head, then `body` a byte every `everyMs` (a slow body, however small). */
  | { kind: 'slow-body'; body: string; everyMs: number }
  /** The sandbox applies the request; the client gets this answer instead of the sandbox's. */
  | { kind: 'answer-after-apply'; status: number; body?: string; headers?: Record<string, string> }
  /** An interim answer (100 Continue nobody asked for, 102 Processing, 103 Early Hints), then the sandbox's. */
  | { kind: 'informational'; status: 100 | 102 | 103 }
  /** These bytes on the socket as they are (a head of any shape), then the connection hangs or is reset. */
  | { kind: 'raw'; bytes: string; then: 'hang' | 'reset' }
  /** A 200's chunked head, then `chunkBytes` every `everyMs` for as long as the client reads: `sent` counts them. */
  | { kind: 'endless-body'; chunkBytes: number; everyMs: number; sent: { bytes: number } };

export interface FaultRule {
  method?: string;
  path: RegExp;
  fault: Fault;
  /** How many matching requests get the fault (then the rule is spent); unlimited when absent. */
  times?: number;
  /** Fault a matching request with this probability (the caller's seeded random), else try the next rule. */
  probability?: number;
}

export interface SeenRequest {
  method: string;
  path: string;
  fault: Fault['kind'] | 'none';
  /** The request's headers as v2 received them (trace context, request id). */
  headers: IncomingHttpHeaders;
}

export interface FaultUpstream {
  /** The v2 base URL for the gateway (`V2_BASE_URL`). */
  url: string;
  /** Rules are tried in order; the first that matches and is not spent applies. */
  rules: FaultRule[];
  seen: SeenRequest[];
  random: () => number;
  close(): Promise<void>;
}

export async function startFaultUpstream(target: string, options: { random?: () => number } = {}): Promise<FaultUpstream> {
  const targetUrl = new URL(target);
  const rules: FaultRule[] = [];
  const seen: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const upstream: FaultUpstream = { url: '', rules, seen, random: options.random ?? Math.random, close };

  const server = createServer((req, res) => void answer(req, res));
  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readAll(req);
    const base = targetUrl.pathname.replace(/\/$/, '');
    const url = req.url ?? '/';
    // Only the v2 API's calls are seen and faulted: what a gateway asks beside them (the OAuth
    // token, a local sandbox's account list) passes through as it is, so counts are of API calls.
    if (url !== base && !url.startsWith(`${base}/`) && !url.startsWith(`${base}?`)) return pass(req, body, res, targetUrl);
    const path = url.slice(base.length).split('?')[0]!;
    // The first rule that matches and, if it has a probability, draws its fault.
    const rule = rules.find(
      (r) =>
        (r.times ?? 1) > 0 &&
        (!r.method || r.method === req.method) &&
        r.path.test(path) &&
        (r.probability === undefined || upstream.random() < r.probability),
    );
    if (rule?.times !== undefined) rule.times--;
    const fault = rule?.fault;
    seen.push({ method: req.method ?? '', path, fault: fault?.kind ?? 'none', headers: req.headers });
    if (!fault) return pass(req, body, res, targetUrl);
    switch (fault.kind) {
      case 'delay':
        await new Promise((resolve) => setTimeout(resolve, fault.ms));
        return pass(req, body, res, targetUrl);
      case 'hang':
        return;
      case 'reset':
        return void req.socket.destroy();
      case 'reset-after-apply': {
        const answer = await apply(req, body, targetUrl);
        res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': String(answer.body.length + 100) });
        res.write(answer.body.subarray(0, Math.floor(answer.body.length / 2)));
        return void setTimeout(() => req.socket.destroy(), 10);
      }
      case 'answer':
        res.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
        for (let i = 0; i < (fault.repeatBodyTimes ?? 1); i++) {
          if (!res.write(fault.body ?? '')) await new Promise((resolve) => res.once('drain', resolve));
          if (res.destroyed) return;
        }
        return void res.end();
      case 'reset-mid-headers':
        req.socket.write('HTTP/1.1 200 OK\r\ncontent-type: applic');
        return void setTimeout(() => req.socket.destroy(), 10);
      case 'garbage':
        return void req.socket.end('\u0000\u00ffnot http at all\r\n\r\n');
      case 'slow-body':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(fault.body)) });
        for (const byte of Buffer.from(fault.body)) {
          if (res.destroyed) return;
          res.write(Buffer.of(byte));
          await new Promise((resolve) => setTimeout(resolve, fault.everyMs));
        }
        return void res.end();
      case 'informational':
        if (fault.status === 100) res.writeContinue();
        else if (fault.status === 102) res.writeProcessing();
        else res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
        return pass(req, body, res, targetUrl);
      case 'raw':
        req.socket.write(fault.bytes);
        if (fault.then === 'reset') setTimeout(() => req.socket.destroy(), 10);
        return;
      case 'endless-body':
        return endlessBody(res, fault);
      case 'answer-after-apply':
        await apply(req, body, targetUrl);
        res.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
        return void res.end(fault.body ?? '');
    }
  }
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${targetUrl.pathname.replace(/\/$/, '')}`;

  function close(): Promise<void> {
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => server.close(() => resolve()));
  }
  return upstream;
}

/** Writes `fault`'s chunks until the client stops reading: as fast as it drains them, or one every `everyMs`. */
async function endlessBody(res: ServerResponse, fault: Extract<Fault, { kind: 'endless-body' }>): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(fault.chunkBytes, 0x20);
  res.write('{"pad":"');
  while (!res.destroyed) {
    fault.sent.bytes += chunk.length;
    if (!res.write(chunk)) await drainedOrClosed(res);
    await new Promise((resolve) => setTimeout(resolve, fault.everyMs));
  }
}

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Send the request on to the sandbox and return its answer. */
function apply(
  req: IncomingMessage,
  body: Buffer,
  target: URL,
): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers = { ...req.headers, host: target.host, 'content-length': String(body.length) };
    delete headers['transfer-encoding'];
    const out = forwardRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
      readAll(answer).then((text) => resolve({ status: answer.statusCode ?? 502, headers: flatHeaders(answer), body: text }), reject);
    });
    out.on('error', reject);
    out.end(body);
  });
}

async function pass(req: IncomingMessage, body: Buffer, res: ServerResponse, target: URL): Promise<void> {
  try {
    const answer = await apply(req, body, target);
    res.writeHead(answer.status, { ...answer.headers, 'content-length': String(answer.body.length) });
    res.end(answer.body);
  } catch {
    req.socket.destroy();
  }
}

function flatHeaders(message: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers)) {
    if (value === undefined || name === 'transfer-encoding' || name === 'connection' || name === 'keep-alive') continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/**
 * A gateway whose v2 is `upstream` (the fault proxy's URL), with both rate limits off and no log
 * output unless `env` says otherwise: what the fault tests put in front of the proxy. The sandbox's
 * OAuth tokens name its own origin as their api_url: not followed, so every call passes the proxy.
 */
export function startGatewayOver(upstream: string, env: Record<string, string> = {}): Promise<RunningGateway> {
  return startGateway(
    loadConfig({
      PORT: '0',
      V2_BASE_URL: upstream,
      V1_RATE_LIMITS: 'off',
      V2_RATE_LIMITS: 'off',
      LOG_LEVEL: 'silent',
      ...env,
    }),
  );
}
