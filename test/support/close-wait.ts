import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

/** The process's TCP sockets in CLOSE-WAIT (the client closed, the process never did), from /proc. */
export function closeWaitOf(pid: number): number {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
      if (inode) inodes.add(inode);
    } catch {
      // The descriptor closed while we read the list.
    }
  }
  let count = 0;
  for (const table of ['tcp', 'tcp6']) {
    for (const line of readFileSync(`/proc/${pid}/net/${table}`, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] === '08' && inodes.has(fields[9] ?? '')) count++;
    }
  }
  return count;
}

/** The child processes of `pid` (a cluster primary's workers), from /proc. */
export function childrenOf(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
}
