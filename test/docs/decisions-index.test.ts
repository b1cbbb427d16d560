import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * docs/decisions.md is the index of the decisions, kept by topic in docs/decisions/: an entry no
 * line of the index names would be found by nobody looking for it there, nor by a code comment that
 * cites it by title ("docs/decisions.md, \"Reads kept between calls\""). That each link leads to its
 * heading is test/docs/links.test.ts's.
 */

const DOCS = fileURLToPath(new URL('../../docs/', import.meta.url));
const index = readFileSync(path.join(DOCS, 'decisions.md'), 'utf8');
const topics = readdirSync(path.join(DOCS, 'decisions')).filter((name) => name.endsWith('.md'));

/** The `## ` entries of a page, outside code blocks. */
const entriesOf = (markdown: string) => [...markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^## (.+)$/gm)].map((m) => m[1]!.trim());

describe('docs/decisions.md, the index of the decisions by topic', () => {
  it('lists every entry of every topic page, by its title and a link into its page', () => {
    expect(topics.length).toBeGreaterThan(5);
    const unlisted = topics.flatMap((page) =>
      entriesOf(readFileSync(path.join(DOCS, 'decisions', page), 'utf8'))
        .filter((title) => !index.includes(`- [${title}](decisions/${page}#`))
        .map((title) => `${page}: ${title}`),
    );
    expect(unlisted).toEqual([]);
  });

  it('holds no entry itself: its sections are the topics, one per page, and an entry is in one page only', () => {
    expect(entriesOf(index)).toHaveLength(topics.length);
    for (const page of topics) expect(index, page).toContain(`](decisions/${page})`);
    const titles = topics.flatMap((page) => entriesOf(readFileSync(path.join(DOCS, 'decisions', page), 'utf8')));
    expect(new Set(titles).size).toBe(titles.length);
  });
});
