/**
 * The key table of `shared/data/README.md`, written from the declared access patterns (`npm run keys`):
 * every module that declares one is loaded (the composition root for the resource types, then each module
 * of the data layer and the areas, since handlers and write modules declare the keys they keep), and each
 * pattern is a row. `test/unit/data/access-patterns.test.ts` checks the committed table is this one.
 */
import { readdirSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { collisions } from '#shared/data/access-pattern-collisions';
import { type DeclaredPattern, declaredAccessPatterns } from '#shared/data/access-patterns';
import { REPOSITORY_ROOT } from '../repository';

const BEGIN = '<!-- key-table: written by `npm run keys` from the declared access patterns -->';
const END = '<!-- /key-table -->';
export const README = resolve(REPOSITORY_ROOT, 'shared/data/README.md');

const modulesUnder = (folder: string): string[] =>
  readdirSync(resolve(REPOSITORY_ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => resolve(REPOSITORY_ROOT, folder, file))
    .sort();

/** Every declared pattern: the composition root first, so types register before the modules that use them. */
export const loadPatterns = async (): Promise<DeclaredPattern[]> => {
  await import('#shared/routes');
  for (const file of [...modulesUnder('shared/data'), ...modulesUnder('functions')]) {
    await import(pathToFileURL(file).href);
  }
  return declaredAccessPatterns();
};

const INDEX_ORDER = ['table', 'lsi1', 'lsi2', 'gsi1', 'gsi2'];
/**
 * A template as the README writes keys: `{org_id}` → `<org_id>`, the character no value holds escaped, and
 * alternatives' `|` (`<rels.scheme|rels.location>`), which would end the table's cell even in code.
 */
const shown = (template: string) =>
  `\`${template
    .replace(/\{([^}]+)\}/g, '<$1>')
    .replaceAll('\u0001', '\\u0001')
    .replaceAll('|', '\\|')}\``;
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export const keyTable = (patterns: readonly DeclaredPattern[]): string => {
  const clashes = collisions(patterns);
  if (clashes.length > 0)
    throw new Error(
      clashes.map(([a, b]) => `${a.owner} ${a.name} collides with ${b.owner} ${b.name}`).join('\n'),
    );
  const rows = [...patterns]
    .sort(
      (a, b) =>
        INDEX_ORDER.indexOf(a.index) - INDEX_ORDER.indexOf(b.index) ||
        a.pk.localeCompare(b.pk) ||
        a.sk.localeCompare(b.sk),
    )
    .map(
      (p) =>
        `| ${p.index} | ${shown(p.pk)} | ${shown(p.sk)} | ${p.owner} \`${p.name}\` | ${cell(p.about ?? '')} |`,
    );
  return [
    BEGIN,
    '',
    '| Index | Partition | Sort | Declared by (pattern) | What it holds |',
    '| ----- | --------- | ---- | --------------------- | ------------- |',
    ...rows,
    '',
    END,
  ].join('\n');
};

/** The README with its key table replaced. */
export const withKeyTable = (readme: string, table: string): string => {
  const [start, end] = [readme.indexOf(BEGIN), readme.indexOf(END)];
  if (start === -1 || end === -1)
    throw new Error(`${relative(REPOSITORY_ROOT, README)} has no key-table markers`);
  return `${readme.slice(0, start)}${table}${readme.slice(end + END.length)}`;
};
