/**
 * Issue 40, item 7: each OpenAPI tag is described by its area's guide, so the docs page, the document and
 * the reference at /docs say the same thing. The guide (docs/<area>.md) claims its tags on the line
 * before its summary paragraph; `infra/openapi/tag-descriptions.ts` reads them.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describedTags, tagGuides } from '../../infra/openapi/tag-descriptions';

/** The OpenAPI document (docs/openapi.json, proven current by specifications.test.ts). */
const document = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../../docs/openapi.json'), 'utf8'),
) as {
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, { tags?: string[] }>>;
};

/** A docs directory of the given pages, for as long as `use` runs. */
const withPages = <T>(pages: Record<string, string>, use: (directory: string) => T): T => {
  const directory = mkdtempSync(join(tmpdir(), 'tag-guides-'));
  try {
    for (const [name, text] of Object.entries(pages)) writeFileSync(join(directory, name), text);
    return use(directory);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
};

describe('OpenAPI tags are described by their area guides (issue 40, item 7)', () => {
  it('every tag an operation names is in the document with the summary paragraph of the guide that claims it', () => {
    const operationTags = new Set(
      Object.values(document.paths).flatMap((operations) =>
        Object.values(operations).flatMap((op) => op.tags ?? []),
      ),
    );
    expect(document.tags.map((tag) => tag.name).sort()).toEqual([...operationTags].sort());
    const guides = tagGuides();
    for (const tag of document.tags) {
      const guide = guides.get(tag.name);
      expect(guide, tag.name).toBeDefined();
      expect(tag.description, tag.name).toBe(guide?.description);
      expect(tag.description?.length, tag.name).toBeGreaterThan(40);
      const page = readFileSync(resolve(import.meta.dirname, '../../docs', guide?.page ?? ''), 'utf8');
      expect(page.replace(/\s+/g, ' '), tag.name).toContain(tag.description);
    }
  });

  it('a guide’s summary paragraph describes each tag it claims, its lines joined', () => {
    const guides = withPages(
      {
        'assets.md':
          '# Assets\n\n<!-- openapi-tags: Equipment, Vehicles -->\nEquipment and\nvehicles.\n\nMore.\n',
      },
      (directory) => tagGuides(directory),
    );
    expect(Object.fromEntries(guides)).toEqual({
      Equipment: { page: 'assets.md', description: 'Equipment and vehicles.' },
      Vehicles: { page: 'assets.md', description: 'Equipment and vehicles.' },
    });
  });

  it('generation fails on a tag no guide claims, a tag two guides claim, a claim no route uses, and a relative link', () => {
    const claim = (tags: string, text = 'A summary.') =>
      `# Page\n\n<!-- openapi-tags: ${tags} -->\n${text}\n`;
    const guides = withPages({ 'a.md': claim('Agents') }, (directory) => tagGuides(directory));
    expect(() => describedTags(['Agents', 'Briefings'], guides)).toThrow(
      /The tag Briefings has no description: claim it in its area's guide/,
    );
    expect(() => describedTags([], guides)).toThrow('No route has the tag(s) Agents (docs/a.md)');
    expect(() =>
      withPages({ 'a.md': claim('Agents'), 'b.md': claim('Agents') }, (directory) => tagGuides(directory)),
    ).toThrow('The tag Agents is claimed by docs/a.md and docs/b.md');
    expect(() =>
      withPages({ 'a.md': claim('Agents', 'See [jobs](jobs.md).') }, (directory) => tagGuides(directory)),
    ).toThrow(/no relative link/);
  });
});
