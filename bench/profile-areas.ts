import { readFileSync } from 'node:fs';

/**
 * A CPU profile (`.cpuprofile`, from `node --cpu-prof` or bench/profile.ts) read by area: where the
 * code of each sample lives (v1gate's own layers, each npm package, Node's internals, the kernel's
 * socket writes), as a share of the process's busy samples. Multiplied by the CPU per call measured
 * over the same window, each share is the µs per call that area costs.
 */

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
}

export function readProfile(file: string): CpuProfile {
  return JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
}

/** Native functions that are a write to a socket: their samples are mostly the kernel sending on it. */
const SOCKET_WRITES = new Set(['writev', 'writeLatin1String', 'writeUtf8String', 'writeAsciiString', 'writeString', 'writeBuffer']);

/** The area a function's code lives in. */
export function areaOf({ functionName, url }: ProfileNode['callFrame']): string {
  if (!url) {
    if (functionName.startsWith('(')) return functionName; // (program), (garbage collector), (idle)
    return SOCKET_WRITES.has(functionName) ? 'socket writes (native, mostly the kernel)' : 'native (other)';
  }
  const src = url.indexOf('/src/');
  if (src !== -1 && !url.includes('/node_modules/')) {
    const path = url.slice(src + '/src/'.length).split('/');
    return `v1gate ${path.length > 1 ? path[0] : '(top level)'}`;
  }
  if (url.includes('/bench/floor.')) return 'floor';
  // The innermost package: a dependency installed under another's node_modules is its own.
  const pkg = [...url.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)/g)].at(-1);
  if (pkg) return `npm ${pkg[1]}`;
  if (url.startsWith('node:')) return `node ${url.slice('node:'.length).split('/').slice(0, 2).join('/')}`;
  if (url.startsWith('wasm:')) return "wasm (llhttp, undici's HTTP parser)";
  return url;
}

/** Each area's share of the busy samples (idle excluded), largest first. */
export function busyShareByArea(profile: CpuProfile): Map<string, number> {
  const hits = new Map<string, number>();
  let busy = 0;
  for (const node of profile.nodes) {
    if (node.callFrame.functionName === '(idle)') continue;
    busy += node.hitCount;
    const area = areaOf(node.callFrame);
    hits.set(area, (hits.get(area) ?? 0) + node.hitCount);
  }
  return new Map([...hits].sort((a, b) => b[1] - a[1]).map(([area, n]) => [area, busy === 0 ? 0 : n / busy]));
}

/** A sampling heap profile (`.heapprofile`, from bench/child-ipc.ts): a tree of allocation sites. */
export interface HeapProfileNode {
  callFrame: ProfileNode['callFrame'];
  selfSize: number;
  children: HeapProfileNode[];
}

/** Each area's share of the bytes sampled as allocated, largest first: the same areas as the CPU's. */
export function allocatedShareByArea(head: HeapProfileNode): Map<string, number> {
  const bytes = new Map<string, number>();
  let total = 0;
  const pending = [head];
  for (let node = pending.pop(); node; node = pending.pop()) {
    if (node.selfSize > 0) {
      const area = areaOf(node.callFrame);
      bytes.set(area, (bytes.get(area) ?? 0) + node.selfSize);
      total += node.selfSize;
    }
    pending.push(...node.children);
  }
  return new Map([...bytes].sort((a, b) => b[1] - a[1]).map(([area, n]) => [area, total === 0 ? 0 : n / total]));
}
