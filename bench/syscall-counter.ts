import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The system calls a running server makes over a window, sorted by what they touch: strace attached
 * to every thread of the process (`-f -p`), each call's descriptor named (`-yy`), so a write to the
 * client's socket, to v2's socket, to the log's pipe or file and the event loop's own calls are told
 * apart. strace slows each call it sees, so the window's CPU is not measured: only counts are read.
 */

export type SyscallCounts = Map<string, number>;

const READS = new Set(['read', 'readv', 'recvfrom', 'recvmsg', 'pread64', 'preadv']);
const WRITES = new Set(['write', 'writev', 'sendto', 'sendmsg', 'pwrite64', 'pwritev']);
/** `pid name(fd<what>, ...`: a call's first line (its resumed half is skipped before this is tried). */
const CALL_LINE = /^\d+\s+(\w+)\((?:(\d+)<([^>]*(?:>[^>]*)?)>)?/;

/** Runs `during` while strace counts the calls of process `pid`; `serverPort` tells the client's sockets from v2's. */
export async function countSyscalls<T>(
  pid: number,
  serverPort: number,
  during: () => Promise<T>,
): Promise<{ result: T; counts: SyscallCounts }> {
  const dir = mkdtempSync(join(tmpdir(), 'v1gate-syscalls-'));
  const file = join(dir, 'trace.txt');
  try {
    const strace = spawn('strace', ['-f', '-yy', '-p', String(pid), '-o', file], { stdio: ['ignore', 'ignore', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => strace.once('close', resolve));
    await new Promise<void>((resolve, reject) => {
      let said = '';
      strace.once('error', (error) => reject(new Error(`strace could not run (${error.message}): install it to count system calls`)));
      strace.stderr.on('data', (chunk: Buffer) => {
        said += chunk.toString();
        if (/attached/.test(said)) resolve();
      });
      void exited.then((code) => reject(new Error(`strace stopped (code ${code}) before attaching: ${said.trim()}`)));
    });
    const result = await during();
    strace.kill('SIGINT');
    await exited;
    return { result, counts: countLines(readFileSync(file, 'utf8'), serverPort) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** strace's lines → calls per "<kind> <target>", a call split over two lines (unfinished, resumed) counted once. */
export function countLines(trace: string, serverPort: number): SyscallCounts {
  const counts: SyscallCounts = new Map();
  for (const line of trace.split('\n')) {
    if (line.includes(' resumed>')) continue;
    const match = CALL_LINE.exec(line);
    if (!match) continue;
    const [, name, fd, descriptor] = match as unknown as [string, string, string | undefined, string | undefined];
    const key = `${kindOf(name)} ${targetOf(fd, descriptor, serverPort)}`.trimEnd();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

function kindOf(name: string): string {
  if (READS.has(name)) return 'read';
  if (WRITES.has(name)) return 'write';
  if (name.startsWith('epoll')) return 'poll';
  return name;
}

/**
 * What a descriptor is, from strace's `-yy` name of it: a TCP connection is the client's when its
 * local port is the server's, else v2's (`TCP:[127.0.0.1:54638->127.0.0.1:33683]`, or `TCPv6:[[::1]:54638->[::1]:33683]`). Standard
 * output and error are the log, whatever they are: a pipe, a file, or the Unix socket pair a parent
 * process hands its child (`UNIX-STREAM:[1691843->1691842]`, which names inodes, not ports, and so
 * must not be read as a connection: taken for one, the log's batches read as v2 writes).
 */
function targetOf(fd: string | undefined, descriptor: string | undefined, serverPort: number): string {
  if (descriptor === undefined) return '';
  if (fd === '1' || fd === '2') return 'log (standard output)';
  const connection = /^TCP(?:v6)?:\[.*?:(\d+)\]?->/.exec(descriptor);
  if (connection) return Number(connection[1]) === serverPort ? 'client socket' : 'v2 socket';
  if (descriptor.startsWith('UNIX')) return 'unix socket';
  if (descriptor.startsWith('pipe:')) return 'pipe';
  if (descriptor.startsWith('/')) return 'file';
  if (descriptor.startsWith('anon_inode')) return 'event loop';
  return 'other';
}
