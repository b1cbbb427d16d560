import fs from 'node:fs';
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
  /**
   * Asynchronous only: a non-blocking descriptor on what `dest` writes to (`stdoutWithoutWaiting`),
   * through which each batch is written from the main thread at once rather than handed to libuv's
   * thread pool. A batch it cannot take now (EAGAIN: the pipe is full) or takes in part goes on
   * through `dest` from the pool, as every batch did before.
   */
  mainThreadFd?: number | undefined;
  /**
   * Asynchronous only: the most bytes held waiting for their write. Past it a line is dropped
   * (sonic-boom's `maxLength`, which emits 'drop' with it) rather than kept: a reader that stops
   * reading (a stalled log collector, a full pipe) must not grow the process without bound.
   */
  maxBufferedBytes?: number;
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
export function logDestination({ batchBytes, mainThreadFd, maxBufferedBytes, ...options }: LogDestinationOptions): LogDestination {
  // sonic-boom starts a write once `minLength` bytes are gathered, and writes up to `maxWrite` of
  // them at once: with `minLength` alone, the line that took a batch past it went in it too (4,239
  // bytes for 9 call lines of 471), and lines gathered while a write was in flight joined the next
  // one, up to its default 16 KiB. A batch starts a new chunk where a line would take it past
  // `maxWrite`, and `minLength` must be below `maxWrite`.
  const batches = batchBytes === undefined ? {} : { minLength: batchBytes - 1, maxWrite: batchBytes };
  const bound = maxBufferedBytes === undefined || options.sync ? {} : { maxLength: maxBufferedBytes };
  const stream = pino.destination({ mode: 0o600, ...options, ...batches, ...bound, contentMode: 'buffer' });
  // In buffer mode sonic-boom's `write` is its `writeBuffer`; its types name only the utf8 one.
  const writeBytes = stream.write as unknown as (this: LogDestination, bytes: Buffer) => boolean;
  stream.write = (line: string | Buffer) => writeBytes.call(stream, typeof line === 'string' ? Buffer.from(line) : line);
  if (mainThreadFd !== undefined && !options.sync) writeBatchesNow(stream as unknown as SonicBoomState, mainThreadFd);
  return stream;
}

/** The parts of sonic-boom's state (4.x, index.js) its batch writer reads and sets, in buffer mode. */
interface SonicBoomState {
  fd: number;
  _writing: boolean;
  _writingBuf: Buffer;
  _bufs: Buffer[][];
  _lens: number[];
  _actualWrite(): void;
  /** sonic-boom's end of a write: what was written let go, the next batch started, a partial or refused write sent again from the pool. */
  release(error: NodeJS.ErrnoException | null, written?: number): void;
}

/** Batches written one inside another's end (`release` starts the next): past this many, the next one goes to the pool. */
const MAX_NESTED_WRITES = 32;

/**
 * sonic-boom's start of an asynchronous batch write (`actualWriteBuffer`), with the write made on
 * the main thread (`writeSync`) through `fd`, a descriptor that never makes it wait: the thread
 * pool's write cost the process a wake-up of a pool thread, its futex calls and an eventfd write
 * and read on every batch (21-32 µs against 4 µs for a 4 KiB batch to a pipe). A batch `fd` cannot
 * take now (EAGAIN: the pipe is full), or refuses otherwise, is written from the pool through the
 * stream's own descriptor, as before (its error, if any, is then the stream's `error`), and the batches gathered meanwhile wait behind it in order, as they did
 * behind a write in flight; a batch taken in part (a socket can) has its rest written so by
 * sonic-boom's own `release`, which also starts the next batch. The process never waits on its
 * log reader. Flushing on exit (`flushSync`) is sonic-boom's, through the stream's descriptor.
 */
function writeBatchesNow(stream: SonicBoomState, fd: number): void {
  let nested = 0;
  stream._actualWrite = function writeNow(this: SonicBoomState) {
    this._writing = true;
    if (this._writingBuf.length === 0) this._writingBuf = joined(this._bufs.shift() ?? [], this._lens.shift() ?? 0);
    // An empty batch (a flush with nothing gathered, every LOG_FLUSH_INTERVAL_MS on an idle gateway) needs no system call.
    if (this._writingBuf.length === 0) return this.release(null, 0);
    const written = nested < MAX_NESTED_WRITES ? writtenNow(fd, this._writingBuf) : undefined;
    if (written === undefined) {
      fs.write(this.fd, this._writingBuf, this.release);
      return;
    }
    nested++;
    try {
      this.release(null, written);
    } finally {
      nested--;
    }
  };
}

/** The bytes `fd` took of `bytes` at once, or undefined when it took none (EAGAIN), or failed: the pool's write then meets it, and sonic-boom's `release` answers it as ever. */
function writtenNow(fd: number, bytes: Buffer): number | undefined {
  try {
    return fs.writeSync(fd, bytes);
  } catch {
    return undefined;
  }
}

const joined = (bufs: Buffer[], length: number) => (bufs.length === 1 ? bufs[0]! : Buffer.concat(bufs, length));

/**
 * Standard output as a descriptor the log can write to from the main thread without ever waiting
 * on its reader, or undefined when there is none (the log then writes from the pool):
 * - a pipe (docker's, kubernetes', a shell's `|`): a descriptor of its own, opened non-blocking
 *   on the same pipe through /proc. Its non-blocking mode is its own; the descriptor the process
 *   inherited, and every other process holding it, stay as they were.
 * - anything else (a socket pair, a journald socket) already non-blocking: Node makes standard
 *   output so once anything reads `process.stdout` (the logger does, to ask whether it is a
 *   terminal, unless LOG_FORMAT says), and so does any Node process sharing it (npm). A socket
 *   cannot be opened again through /proc, and setting the mode on a shared descriptor is not
 *   this writer's to do.
 * A file, or a blocking socket: undefined.
 */
export function stdoutWithoutWaiting(): number | undefined {
  if (ownStdout === undefined) ownStdout = ownPipeDescriptor(1);
  return ownStdout ?? (isNonBlockingSocket(1) ? 1 : undefined);
}

/**
 * Standard output's own descriptor, opened once for the process and kept for its life (every
 * logger a process makes shares it: a test process starts many gateways); null when standard
 * output is no pipe, or no own descriptor could be opened (no /proc, no reader).
 */
let ownStdout: number | null | undefined;

function ownPipeDescriptor(fd: number): number | null {
  try {
    return fs.fstatSync(fd).isFIFO() ? fs.openSync(`/proc/self/fd/${fd}`, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK) : null;
  } catch {
    return null;
  }
}

/** Whether descriptor `fd` is a socket in non-blocking mode (Linux: /proc/self/fdinfo), false wherever that cannot be read. */
function isNonBlockingSocket(fd: number): boolean {
  try {
    if (!fs.fstatSync(fd).isSocket()) return false;
    const flags = /^flags:\s*([0-7]+)$/m.exec(fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'));
    return flags !== null && (Number.parseInt(flags[1]!, 8) & fs.constants.O_NONBLOCK) !== 0;
  } catch {
    return false;
  }
}
