import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every relative link of the README and the pages under docs/ leads somewhere: the file exists and,
 * for a `#fragment`, the page has that heading (or an explicit anchor). The README is a guide to
 * pages under docs/; a page moved or a heading renamed must not leave a newcomer at a dead end.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pagesUnder = (dir: string): string[] =>
  readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return pagesUnder(rel);
    return entry.name.endsWith('.md') ? [rel] : [];
  });
const PAGES = ['README.md', ...pagesUnder('docs')];

/** The text outside fenced code blocks and inline code, where a link is a link. */
const prose = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');

/** Link targets of a page: `[text](target)`, without a title. */
const linksOf = (markdown: string) => [...prose(markdown).matchAll(/\]\(([^()\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);

/** The anchors a Markdown renderer gives a page's headings (GitHub's rule, repeats numbered), and its explicit ones. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, title] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = title!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replaceAll(' ', '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const [, id] of markdown.matchAll(/<a (?:id|name)="([^"]+)"/g)) anchors.add(id!);
  return anchors;
}

describe('the links of the README and docs/', () => {
  it('lead to files that exist, and to headings those pages have', () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      const text = readFileSync(path.join(ROOT, page), 'utf8');
      for (const link of linksOf(text)) {
        if (/^[a-z]+:/i.test(link)) continue; // https:, mailto:: not a file of the repository
        const [target = '', fragment] = link.split('#');
        const file = target === '' ? path.join(ROOT, page) : path.resolve(path.dirname(path.join(ROOT, page)), decodeURI(target));
        if (!existsSync(file)) broken.push(`${page}: ${link} (no such file)`);
        else if (fragment !== undefined && statSync(file).isFile() && !anchorsOf(readFileSync(file, 'utf8')).has(fragment))
          broken.push(`${page}: ${link} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('are checked at all: the README links each page of the main tasks', () => {
    const readme = linksOf(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
    for (const page of ['production', 'migration', 'push-notifications', 'meeting-sdk', 'benchmarks', 'configuration', 'decisions'])
      expect(readme, page).toContain(`docs/${page}.md`);
  });

  it('keep the README a guide read in ten minutes: at most 250 lines, its contents list first, every entry a heading', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    const contents = readme.slice(readme.indexOf('## Contents'), readme.indexOf('\n## ', readme.indexOf('## Contents') + 1));
    const entries = linksOf(contents);
    expect(entries.length).toBeGreaterThan(5);
    expect(entries.filter((link) => !anchorsOf(readme).has(link.slice(1)))).toEqual([]);
    expect(anchorsOf(readme).size - 2).toBeLessThanOrEqual(entries.length); // every heading listed, but the title and Contents
  });
});
