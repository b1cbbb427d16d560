import { createHash } from 'node:crypto';
import { prefixOf } from '../../shared/route-owners.js';
import { Hono } from 'hono';
import type { TokenVerifier } from '../auth.js';
import { tokenFrom, type V2AuthMode } from '../auth.js';
import { notFound } from '../errors.js';
import type { Account } from '../model/account.js';
import type { RecordingFile } from '../model/meeting.js';
import type { SandboxState } from '../state.js';
import { RECORDING_NOT_FOUND } from './meeting-recordings-routes.js';

/**
 * A recording file's bytes, at its `download_url` (`/rec/download/{token}`), as the service serves
 * them today: only with an access token of the file's account in `Authorization: Bearer` (a token
 * in `?access_token=` is refused, valid or not), whole or by `Range`. The bytes are made as they are
 * sent, one chunk per read of the response, so a file of any declared `file_size` costs one chunk of
 * memory, and a client that stops reading stops them being made; `served()` counts them.
 */

/** The bytes repeat with this period: a prime, so no chunk or range boundary lines up with it and a shifted byte shows. */
const PERIOD = 65_521;
/** One read of the response: at most this many bytes are made ahead of the client. */
const CHUNK = 64 * 1024;

/** What the service answers each kind of file as. */
const CONTENT_TYPE: Record<RecordingFile['file_type'], string> = {
  MP4: 'video/mp4',
  M4A: 'audio/mp4',
  TIMELINE: 'application/json',
  TRANSCRIPT: 'text/vtt',
  CHAT: 'text/plain',
};
const EXTENSION: Record<RecordingFile['file_type'], string> = { MP4: 'mp4', M4A: 'm4a', TIMELINE: 'json', TRANSCRIPT: 'vtt', CHAT: 'txt' };

/** The repeating block of a file's bytes: a function of its id alone, so a test can compute any byte. */
function blockOf(fileId: string): Buffer {
  const block = Buffer.alloc(PERIOD + CHUNK);
  let seed = createHash('sha256').update(fileId).digest();
  for (let at = 0; at < PERIOD; at += seed.length) {
    seed.copy(block, at, 0, Math.min(seed.length, PERIOD - at));
    seed = createHash('sha256').update(seed).digest();
  }
  // The period again after it (a chunk is longer than a period), so any chunk is one slice of the block.
  for (let at = PERIOD; at < block.length; at += PERIOD) block.copy(block, at, 0, Math.min(PERIOD, block.length - at));
  return block;
}

/** The bytes of the file with this id as the sandbox serves them: `start`..`end` (inclusive) of it. */
export function recordingBytes(fileId: string): (start: number, end: number) => Buffer {
  const block = blockOf(fileId);
  return (start, end) => {
    const out = Buffer.alloc(end - start + 1);
    for (let at = 0; at < out.length; at += CHUNK) {
      const length = Math.min(CHUNK, out.length - at);
      const from = (start + at) % PERIOD;
      block.copy(out, at, from, from + length);
    }
    return out;
  };
}

/** The bytes asked for, or why none can be: a `Range` header read as RFC 9110 §14 says (one range; several are served whole). */
type Span = { start: number; end: number; partial: boolean } | 'unsatisfiable';

export function spanOf(range: string | undefined, size: number): Span {
  const whole = { start: 0, end: size - 1, partial: false };
  const match = range === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(range.trim());
  // No range, or one this server does not read (several, another unit): the whole file, as RFC 9110 lets a server answer.
  if (!match || (match[1] === '' && match[2] === '')) return whole;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1, partial: true };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end, partial: true };
}

export interface RecordingDownloads {
  /** The route, to be mounted at `/rec`. */
  app: Hono;
  /** What `GET /sandbox/recordings/served` answers. */
  served(): DownloadCounts;
}

/** Download requests so far (answered or refused), bytes handed to responses, and the downloads still sending. */
export interface DownloadCounts {
  requests: number;
  bytes_served: number;
  open: number;
}

/** The file whose `download_url` ends in `token`, if the account holds it. */
function fileOf(state: SandboxState, account: Account, token: string): RecordingFile | undefined {
  for (const meeting of state.meetings.values()) {
    if (meeting.account_id !== account.id) continue;
    for (const instance of meeting.instances) {
      const file = instance.recording_files.find((f) => f.download_url.endsWith(`${prefixOf('recordings')}/download/${token}`));
      if (file) return file;
    }
  }
  return undefined;
}

export function recordingDownloads(state: SandboxState, verifier: TokenVerifier, mode: V2AuthMode, control: Hono): RecordingDownloads {
  const counts: DownloadCounts = { requests: 0, bytes_served: 0, open: 0 };
  // What a test reads to see that a refused link reaches no download, and a client that leaves ends its read.
  control.get('/recordings/served', (c) => c.json(counts));
  const app = new Hono();
  app.get('/download/:token', async (c) => {
    counts.requests++;
    const account = await verifier.verify(tokenFrom(c.req.header('authorization'), c.req.query('access_token'), mode));
    const file = fileOf(state, account, c.req.param('token'));
    if (!file) throw notFound(RECORDING_NOT_FOUND, 'Recording file does not exist.');
    const size = file.file_size;
    const span = spanOf(c.req.header('range'), size);
    const headers: Record<string, string> = {
      'accept-ranges': 'bytes',
      'content-type': CONTENT_TYPE[file.file_type],
      'content-disposition': `attachment; filename="${file.id}.${EXTENSION[file.file_type]}"`,
    };
    if (span === 'unsatisfiable') return c.body(null, 416, { ...headers, 'content-range': `bytes */${size}` });
    const length = size === 0 ? 0 : span.end - span.start + 1;
    if (span.partial) headers['content-range'] = `bytes ${span.start}-${span.end}/${size}`;
    headers['content-length'] = String(length);
    const block = blockOf(file.id);
    let sent = 0;
    counts.open++;
    let open = true;
    const ended = () => {
      if (open) counts.open--;
      open = false;
    };
    const body = new ReadableStream<Uint8Array>(
      {
        // Made only when the response reads: a client that stops reading stops the bytes being made.
        pull(controller) {
          if (sent >= length) {
            ended();
            return controller.close();
          }
          const n = Math.min(CHUNK, length - sent);
          const from = (span.start + sent) % PERIOD;
          controller.enqueue(new Uint8Array(block.subarray(from, from + n)));
          sent += n;
          counts.bytes_served += n;
        },
        // The connection closed before the end: the client left.
        cancel: ended,
      },
      { highWaterMark: 0 },
    );
    return c.body(body, span.partial ? 206 : 200, headers);
  });
  return { app, served: () => ({ ...counts }) };
}
