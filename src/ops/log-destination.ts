import pino from 'pino';

/** What pino writes to: sonic-boom, as `pino.destination` makes it. */
export type LogDestination = ReturnType<typeof pino.destination>;

export interface LogDestinationOptions {
  /** A file descriptor (1: standard output) or a file to append to. */
  dest: number | string;
  /** Each line written before `write` returns (a file), or gathered and written asynchronously. */
  sync: boolean;
  /** sonic-boom's own: bytes gathered before a write starts, a write holding more (asynchronous only; `batchBytes` bounds it). */
  minLength?: number;
  /**
   * Asynchronous only: the most bytes one write holds, a batch written once nearly that many are
   * gathered. Standard output's is PIPE_BUF (4 KiB), the most a write to a pipe puts in whole: the
   * workers of WORKERS>1 share the pipe, and a larger write can interleave with another's.
   */
  batchBytes?: number;
  /** The file's folders made when missing. */
  mkdir?: boolean;
}

/**
 * pino's own destination (sonic-boom, made by `pino.destination`: its batches, its flush and
 * `flushSync`, pino's flush of it on exit and after a fatal line), in sonic-boom's buffer mode, every
 * line handed to it as its UTF-8 bytes.
 *
 * Why not the default (utf8) mode: there each `write` appends the line to the batch's last string
 * and first takes `Buffer.byteLength` of that string (sonic-boom 4.2.1 and 5.0.2, the latest, the
 * same: index.js, `write`). The appended string is a concatenation V8 must flatten to measure, so
 * the whole batch, up to 16 KiB, is copied once per line appended: 3 to 5 µs of a call line's CPU on
 * this machine. In buffer mode sonic-boom keeps each batch as a list of buffers with their byte
 * count as a number, and joins it once per write; making a line's buffer costs about 0.2 µs.
 *
 * Buffer mode takes buffers only, and pino hands its destination strings (its own lines and the
 * call lines of src/ops/logging-frame.ts alike), so `write` is wrapped to turn each into its bytes
 * on the way in, in the order written.
 */
export function logDestination({ batchBytes, ...options }: LogDestinationOptions): LogDestination {
  // sonic-boom starts a write once `minLength` bytes are gathered, and writes up to `maxWrite` of
  // them at once: with `minLength` alone, the line that took a batch past it went in it too (4,239
  // bytes for 9 call lines of 471), and lines gathered while a write was in flight joined the next
  // one, up to its default 16 KiB. A batch starts a new chunk where a line would take it past
  // `maxWrite`, and `minLength` must be below `maxWrite`.
  const batches = batchBytes === undefined ? {} : { minLength: batchBytes - 1, maxWrite: batchBytes };
  const stream = pino.destination({ mode: 0o600, ...options, ...batches, contentMode: 'buffer' });
  // In buffer mode sonic-boom's `write` is its `writeBuffer`; its types name only the utf8 one.
  const writeBytes = stream.write as unknown as (this: LogDestination, bytes: Buffer) => boolean;
  stream.write = (line: string | Buffer) => writeBytes.call(stream, typeof line === 'string' ? Buffer.from(line) : line);
  return stream;
}
