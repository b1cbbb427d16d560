import type { ServerResponse } from 'node:http';
import { Pool } from 'undici';
import { abandon } from '../shared/abandon.js';

/**
 * Shadow mode's hop to the primary v1, on the hot path of every call: one undici Pool per process
 * (keep-alive, pipelining 1: a slow answer never holds up another), the client's body bytes sent
 * as read, and the primary's answer streamed to the client as it arrives — status, content type,
 * length and bytes, never re-encoded. Only when the call is to be compared are the chunks also
 * kept (a tee), up to a bound, to be parsed after the client has its answer.
 */

export interface PrimaryCall {
  method: string;
  /** Path and query as the client sent them (`/v1/...`). */
  pathAndQuery: string;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * How a streamed call ended. `bytes` only when the caller asked to keep them and all arrived
 * within the bound; `tooLarge` when the answer passed it (what was kept is let go at once).
 */
export type StreamOutcome =
  | { kind: 'sent'; status: number; contentType: string | undefined; bytes: Buffer | undefined; tooLarge?: boolean }
  /** The primary could not be reached or gave no headers in time: nothing was sent to the client. */
  | { kind: 'unreachable' }
  /** Headers were sent, then the primary's body failed: the client's connection was cut, as the primary's was. */
  | { kind: 'primary-failed' }
  /** The client went away before the whole answer was written: the primary's answer was abandoned. */
  | { kind: 'client-gone' };

export interface PrimaryHop {
  /** Streams the answer to `outgoing`, keeping its bytes when they are at most `keepUpTo` (0: none kept). */
  stream(call: PrimaryCall, outgoing: ServerResponse, keepUpTo: number): Promise<StreamOutcome>;
  /** The whole answer, buffered (when there is no Node response to stream to: in-process fetch). */
  buffered(call: PrimaryCall): Promise<{ status: number; contentType: string | undefined; bytes: Buffer }>;
  close(): Promise<void>;
}

export interface PrimaryHopOptions {
  primaryUrl: string;
  timeoutMs: number;
  connections?: number;
}

/** The chunks of an answer kept while they total at most `upTo` bytes (0: none kept); past it, let go at once. */
function keeper(upTo: number) {
  let chunks: Buffer[] | undefined = upTo > 0 ? [] : undefined;
  let total = 0;
  let tooLarge = false;
  return {
    add(chunk: Buffer): void {
      if (!chunks) return;
      total += chunk.length;
      if (total <= upTo) chunks.push(chunk);
      else [chunks, tooLarge] = [undefined, true];
    },
    result(): { bytes: Buffer | undefined; tooLarge?: boolean } {
      const bytes = chunks && (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
      return tooLarge ? { bytes, tooLarge } : { bytes };
    },
  };
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export function primaryHop(options: PrimaryHopOptions): PrimaryHop {
  const url = new URL(options.primaryUrl);
  // A primary URL with a path (`https://host/base`) prefixes the client's `/v1/...`.
  const base = url.pathname.replace(/\/+$/, '');
  const pool = new Pool(url.origin, {
    connections: options.connections ?? 64,
    pipelining: 1,
    keepAliveTimeout: 30_000,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });

  const send = (call: PrimaryCall) =>
    pool.request({
      method: call.method,
      path: base + call.pathAndQuery,
      headers: call.headers,
      body: call.body.length ? call.body : null,
    });

  async function stream(call: PrimaryCall, outgoing: ServerResponse, keepUpTo: number): Promise<StreamOutcome> {
    let answer: Awaited<ReturnType<typeof send>>;
    try {
      answer = await send(call);
    } catch {
      return { kind: 'unreachable' };
    }
    const { statusCode: status, body } = answer;
    const contentType = first(answer.headers['content-type']);
    const length = first(answer.headers['content-length']);
    if (outgoing.destroyed) {
      abandon(body);
      return { kind: 'client-gone' };
    }
    // Content-Length passed on when the primary gave one: no chunked framing the primary did not use.
    const head: Record<string, string> = {};
    if (contentType !== undefined) head['content-type'] = contentType;
    if (length !== undefined) head['content-length'] = length;
    outgoing.writeHead(status, head);
    const kept = keeper(keepUpTo);
    return new Promise<StreamOutcome>((resolve) => {
      let settled = false;
      const done = (outcome: StreamOutcome) => {
        if (settled) return;
        settled = true;
        body.off('data', onData).off('end', onEnd).off('error', onBodyError);
        outgoing.off('drain', onDrain).off('close', onClose);
        resolve(outcome);
      };
      const onData = (chunk: Buffer) => {
        kept.add(chunk);
        if (!outgoing.write(chunk)) body.pause();
      };
      const onDrain = () => body.resume();
      const onEnd = () => {
        outgoing.end();
        done({ kind: 'sent', status, contentType, ...kept.result() });
      };
      // The primary cut its answer short: so does the client's connection, or it would take a
      // truncated body for a whole one.
      const onBodyError = () => {
        abandon(outgoing);
        done({ kind: 'primary-failed' });
      };
      // Closed before `end`: the client left; stop reading (undici drops that primary connection).
      const onClose = () => {
        if (outgoing.writableFinished) return;
        abandon(body);
        done({ kind: 'client-gone' });
      };
      body.on('data', onData).once('end', onEnd).once('error', onBodyError);
      outgoing.on('drain', onDrain).once('close', onClose);
    });
  }

  async function buffered(call: PrimaryCall) {
    const answer = await send(call);
    const bytes = Buffer.from(await answer.body.arrayBuffer());
    return { status: answer.statusCode, contentType: first(answer.headers['content-type']), bytes };
  }

  return { stream, buffered, close: () => pool.close() };
}
