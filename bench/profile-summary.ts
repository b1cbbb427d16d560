import { busyShareByArea, readProfile } from './profile-areas.js';

/**
 * `npx tsx bench/profile-summary.ts bench/out/profiles/X.cpuprofile [N]`: the top N functions by
 * self time, by source file and by area (bench/profile-areas.ts), and by inclusive time, of a
 * `node --cpu-prof` profile or one written by bench/profile.ts.
 */

const [file, topText] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [N]');
const top = Number(topText ?? 25);
const profile = readProfile(file);
const total = profile.nodes.reduce((n, x) => n + x.hitCount, 0);
const short = (url: string) => url.replace(/^file:\/\/.*?\/work\/main\//, '').replace(/^.*node_modules\//, 'nm:');

const self = new Map<string, number>();
const byFile = new Map<string, number>();
for (const node of profile.nodes) {
  const f = node.callFrame;
  const key = `${f.functionName || '(anonymous)'} ${short(f.url)}:${f.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + node.hitCount);
  const where = f.url ? short(f.url).replace(/:\d+$/, '') : f.functionName;
  byFile.set(where, (byFile.get(where) ?? 0) + node.hitCount);
}
const pct = (n: number) => `${((100 * n) / total).toFixed(1)}%`.padStart(6);
console.log(`${total} samples`);
console.log('\nself time by function:');
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(v)}  ${k}`);
console.log('\nself time by file:');
for (const [k, v] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(v)}  ${k}`);
console.log('\nself time by area, share of the busy samples (idle left out):');
for (const [area, share] of [...busyShareByArea(profile)].slice(0, top)) console.log(`${(100 * share).toFixed(1).padStart(5)}%  ${area}`);

// Inclusive time (self + callees) of functions in the project's own files and hono/undici entry points.
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const inclusiveOf = new Map<number, number>();
const inclusive = (id: number): number => {
  const known = inclusiveOf.get(id);
  if (known !== undefined) return known;
  const node = byId.get(id)!;
  const sum = node.hitCount + (node.children ?? []).reduce((n, c) => n + inclusive(c), 0);
  inclusiveOf.set(id, sum);
  return sum;
};
const incl = new Map<string, number>();
for (const node of profile.nodes) {
  const f = node.callFrame;
  if (!/\/(src|bench)\//.test(f.url) && !/node_modules\/(hono|@hono|undici|zod|jose|lru-cache)\//.test(f.url)) continue;
  const key = `${f.functionName || '(anonymous)'} ${short(f.url)}`;
  incl.set(key, (incl.get(key) ?? 0) + inclusive(node.id));
}
console.log('\ninclusive time (project + hono/undici/zod/jose), recursion counted once per frame:');
for (const [k, v] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(v)}  ${k}`);
