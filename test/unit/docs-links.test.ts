/**
 * Issue 40, item 7: the documentation follows the areas. The README is a newcomer's page that links to a
 * guide per area in docs/, and the pages link to each other: every relative link and `#anchor` must
 * resolve, so a page moved or a heading renamed fails here instead of in a reader's browser.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, brokenLinks, slugOf } from '../support/markdown-links';

const root = resolve(import.meta.dirname, '../..');
const docsPages = readdirSync(join(root, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`)
  .sort();
const readme = readFileSync(join(root, 'README.md'), 'utf8');

describe('documentation links (issue 40, item 7)', () => {
  it('every relative link and #anchor in README.md and docs/*.md resolves to a file and a heading', () => {
    expect(docsPages.length).toBeGreaterThan(20);
    expect(brokenLinks(root, ['README.md', ...docsPages])).toEqual([]);
  });

  it('reports a link to a missing page, to a missing heading of another page and to a missing heading of its own', () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-links-'));
    try {
      writeFileSync(join(dir, 'other.md'), '# Other page\n\n## Paging by cursor (`page[cursor]`)\n');
      writeFileSync(
        join(dir, 'page.md'),
        [
          '# Page',
          '',
          'Good: [other](other.md), [its heading](other.md#paging-by-cursor-pagecursor), [mine](#page),',
          '[a site](https://example.com/x#y), `[code](nowhere.md)`.',
          '',
          '```md',
          '[fenced](nowhere.md)',
          '```',
          '',
          'Broken: [gone](gone.md), [no heading](other.md#paging), [not mine](#other-page).',
        ].join('\n'),
      );
      expect(brokenLinks(dir, ['page.md'])).toEqual([
        { page: 'page.md', line: 10, link: 'gone.md', why: 'no file gone.md' },
        { page: 'page.md', line: 10, link: 'other.md#paging', why: 'no heading #paging on other.md' },
        { page: 'page.md', line: 10, link: '#other-page', why: 'no heading #other-page on page.md' },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('anchors are the slugs GitHub makes: code and punctuation dropped, repeats numbered', () => {
    expect(slugOf('CDM 2015: duty holders, pre-construction information')).toBe(
      'cdm-2015-duty-holders-pre-construction-information',
    );
    expect(slugOf("Machine access through the API (the spec's four steps)")).toBe(
      'machine-access-through-the-api-the-specs-four-steps',
    );
    expect([...anchorsOf('# Jobs\n\n## Jobs\n\n```\n# not a heading\n```\n')]).toEqual(['jobs', 'jobs-1']);
  });

  it('README.md is a newcomer’s page: under 250 lines, with the two commands, and a link to every page in docs/', () => {
    expect(readme.split('\n').length).toBeLessThan(250);
    for (const command of [
      'npm install',
      'npm start',
      'npm test',
      'eval "$(npm run -s shell-env)"',
      'EBADENGINE',
    ])
      expect(readme).toContain(command);
    const linked = new Set([...readme.matchAll(/\]\((docs\/[^)#\s]+\.md)/g)].map((link) => link[1]));
    expect(docsPages.filter((page) => !linked.has(page))).toEqual([]);
  });
});
