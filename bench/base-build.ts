import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { REPO_ROOT } from './procs.js';

/**
 * Another revision's compiled tree, for a build-against-build comparison (bench/builds.ts,
 * bench/v2-exchange.ts): exported with `git archive` into bench/out/builds/<commit>/ and compiled
 * there as bench/tsconfig.servers.json says (kept for the next run), on this checkout's node_modules.
 */
export function buildRevision(revision: string): { commit: string; dir: string } {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  const commit = git('rev-parse', '--verify', `${revision}^{commit}`);
  const dir = `${REPO_ROOT}bench/out/builds/${commit}/`;
  if (existsSync(`${dir}.built`)) return { commit, dir };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  console.log(`exporting ${revision} (${commit.slice(0, 7)}) into ${dir} and compiling it ...`);
  execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C '${dir}'`], { cwd: REPO_ROOT, stdio: 'inherit' });
  symlinkSync(`${REPO_ROOT}node_modules`, `${dir}node_modules`, 'dir');
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', `${dir}bench/tsconfig.servers.json`, '--noCheck'], { cwd: dir, stdio: 'inherit' });
  writeFileSync(`${dir}.built`, '');
  return { commit, dir };
}
