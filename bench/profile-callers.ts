import { areaOf, readProfile, type ProfileNode } from './profile-areas.js';

/**
 * `npx tsx bench/profile-callers.ts <file.cpuprofile> [area ...] [--top N]`: which of v1gate's own
 * functions the samples of an area are spent under. The areas bench/profile.ts reads ("node
 * events", "native (other)", "node internal/streams", "(program)"...) name where a sample's code
 * lives, not who asked for it: an EventEmitter's emit is "node events" whether Node's HTTP parser
 * or one of our listeners set it off. Each sample of the areas asked about is charged to the
 * innermost frame of v1gate's own code above it (`src/`, outside node_modules), or to the
 * outermost frame when none of ours is on the stack (Node's own work: the parser, timers, the
 * socket), with the function it was spent in.
 *
 * Default areas: "node events", "native (other)", "node internal/streams", "(program)".
 */

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt === -1 ? 40 : Number(args[topAt + 1]);
const [file, ...rest] = topAt === -1 ? args : [...args.slice(0, topAt), ...args.slice(topAt + 2)];
if (!file) throw new Error('usage: profile-callers.ts <file.cpuprofile> [area ...] [--top N]');
const areas = new Set(rest.length > 0 ? rest : ['node events', 'native (other)', 'node internal/streams', '(program)']);

const profile = readProfile(file);
const parentOf = new Map<number, ProfileNode>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node);

const short = (url: string) => url.replace(/^file:\/\/.*?\/(src|bench|node_modules)\//, '$1/');
const frameName = (node: ProfileNode) => {
  const f = node.callFrame;
  return `${f.functionName || '(anonymous)'} ${f.url ? `${short(f.url)}:${f.lineNumber + 1}` : ''}`.trim();
};
const isOurs = (node: ProfileNode) => {
  const url = node.callFrame.url;
  return url.includes('/src/') && !url.includes('/node_modules/');
};

/** The innermost frame of ours above a node, else the outermost frame under the root. */
function chargedTo(node: ProfileNode): string {
  let outer = node;
  for (let at: ProfileNode | undefined = node; at; at = parentOf.get(at.id)) {
    if (isOurs(at)) return frameName(at);
    if (at.callFrame.functionName !== '(root)') outer = at;
  }
  return `[no v1gate frame] ${frameName(outer)}`;
}

const busy = profile.nodes.reduce((n, x) => (x.callFrame.functionName === '(idle)' ? n : n + x.hitCount), 0);
const pct = (n: number) => `${((100 * n) / busy).toFixed(2)}%`.padStart(7);
for (const area of areas) {
  const byCaller = new Map<string, { hits: number; spentIn: Map<string, number> }>();
  let total = 0;
  for (const node of profile.nodes) {
    if (node.hitCount === 0 || areaOf(node.callFrame) !== area) continue;
    total += node.hitCount;
    const caller = chargedTo(node);
    const entry = byCaller.get(caller) ?? { hits: 0, spentIn: new Map<string, number>() };
    entry.hits += node.hitCount;
    const inner = frameName(node);
    entry.spentIn.set(inner, (entry.spentIn.get(inner) ?? 0) + node.hitCount);
    byCaller.set(caller, entry);
  }
  console.log(`\n${area}: ${pct(total)} of the busy samples, by the caller in v1gate's code`);
  for (const [caller, { hits, spentIn }] of [...byCaller].sort((a, b) => b[1].hits - a[1].hits).slice(0, top)) {
    const inner = [...spentIn]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([name, n]) => `${name} ${pct(n).trim()}`)
      .join('; ');
    console.log(`${pct(hits)}  ${caller}\n           in: ${inner}`);
  }
}
