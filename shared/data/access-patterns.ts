/**
 * Named access patterns (as ElectroDB's entity `indexes`): each kind of item, and each index entry, is
 * declared once with the index it lives on and its partition and sort keys composed from named parts
 * (`ORG#{org_id}#job-role-codes` / `{code}`). Key functions fill a pattern; nothing else spells a key,
 * so `shared/data/README.md`'s key table is written from the declarations (`npm run keys`) and
 * `test/unit/data/access-patterns.test.ts` refuses two patterns whose keys could meet.
 *
 * A part names a value: `{org_id}`, `{id}`, or a field's path in the record (`{attributes.status}`,
 * `{rels.folder}`), which is how the engine fills a record's index entries (`indexed`, engine/stored.ts).
 * Two spellings say more. `{rels.scheme|rels.location}` reads "the scheme, else the location": the first
 * of the alternatives the record holds (an attendance's site is one of two relationships). A part ending
 * `:folded` is written as a sort index keeps its values, the collation's text (`sortKeyText`: case-folded),
 * so `{attributes.signed_in_at:folded}` orders and ranges as the `signed_in_at` sort does.
 */
import { sortKeyText } from './collation';

/** The table's own key, its local secondary indexes (sort values in a record's partition) and the global ones. */
export type IndexName = 'table' | 'lsi1' | 'lsi2' | 'gsi1' | 'gsi2';

export interface AccessPattern<Pk extends string = string, Sk extends string = string> {
  index: IndexName;
  /** The partition key's template: literal text and `{part}`s, separated by `#`. */
  pk: Pk;
  /**
   * The sort key's template. A sort's own on an LSI (`sort-name`: `{attributes.name}`) holds the case-folded
   * value it sorts by, which the sort writes; any other folds a part only where it says `:folded`.
   */
  sk: Sk;
  /** What the key table says of the items or index entries, beyond their keys. */
  about?: string;
}

/** A part's name, without how it is written: `{attributes.signed_in_at:folded}` → `attributes.signed_in_at`. */
type Named<Part extends string> = Part extends `${infer Name}${typeof FOLDED}` ? Name : Part;
/** The parts a template is composed from: `ORG#{org_id}#{site_id}` → `'org_id' | 'site_id'`. */
type Parts<T extends string> = T extends `${string}{${infer Part}}${infer Rest}`
  ? Named<Part> | Parts<Rest>
  : never;
export type PartsOf<P extends AccessPattern> = Record<Parts<P['pk']> | Parts<P['sk']>, string>;

const PART = /\{([^}]+)\}/g;
const FOLDED = ':folded';

/** A part as a template writes it: the name its value is given under, and whether it is written folded. */
const partOf = (text: string) => {
  const folded = text.endsWith(FOLDED);
  const name = folded ? text.slice(0, -FOLDED.length) : text;
  if (name.includes(':')) throw new Error(`{${text}}: a part's one way of writing is ${FOLDED}`);
  return { name, folded };
};

/** The named parts of templates, as their values are given (`fill`): `{a|b:folded}` → `a|b`. */
const namedIn = (...templates: string[]): string[] =>
  [...templates.join('').matchAll(PART)].map(([, part]) => partOf(part as string).name);

/** The named parts a pattern's keys are built from. */
export const partsOf = ({ pk, sk }: AccessPattern): string[] => namedIn(pk, sk);

/** The alternatives a part names, first first: `rels.scheme|rels.location` → both paths; a plain part, itself. */
export const alternativesOf = (name: string): string[] => name.split('|');

/** The template with its parts filled (folded where it says); a part missing is a programming error, thrown. */
export const fill = (template: string, parts: Record<string, string>): string =>
  template.replace(PART, (_, text: string) => {
    const { name, folded } = partOf(text);
    const value = parts[name];
    if (value === undefined) throw new Error(`${template}: no value for {${name}}`);
    return folded ? sortKeyText(value) : value;
  });

/** A table item's key from its pattern. */
export const keyFrom = <P extends AccessPattern>(
  pattern: P,
  parts: PartsOf<P>,
): { pk: string; sk: string } => ({
  pk: fill(pattern.pk, parts),
  sk: fill(pattern.sk, parts),
});

/** The partition alone (a Query's key condition). */
export const partitionFrom = <P extends AccessPattern>(
  pattern: P,
  parts: Record<Parts<P['pk']>, string>,
): string => fill(pattern.pk, parts);

/** A `gsi1` entry's keys from its pattern, as the record carries them. */
export const indexKeysFrom = <P extends AccessPattern>(pattern: P, parts: PartsOf<P>) => ({
  gsi1pk: fill(pattern.pk, parts),
  gsi1sk: fill(pattern.sk, parts),
});

/** The attributes a record carries its entry on an index in: a global index's two keys, a local one's sort value. */
export const entryAttributes = (
  index: Exclude<IndexName, 'table'>,
): ('lsi1' | 'lsi2' | 'gsi1pk' | 'gsi1sk' | 'gsi2pk' | 'gsi2sk')[] =>
  index === 'gsi1' || index === 'gsi2' ? [`${index}pk`, `${index}sk`] : [index];

/** The parts a record's entry on the pattern's index is filled from: a local index's, its sort key's alone. */
export const entryPartsOf = (pattern: AccessPattern): string[] =>
  pattern.index.startsWith('lsi') ? namedIn(pattern.sk) : partsOf(pattern);

/** A record's entry on the pattern's index, as the record carries it (`entryAttributes`); a local one's partition is the record's own. */
export const indexEntryFrom = (
  pattern: AccessPattern,
  parts: Record<string, string>,
): Record<string, string> =>
  pattern.index.startsWith('gsi')
    ? { [`${pattern.index}pk`]: fill(pattern.pk, parts), [`${pattern.index}sk`]: fill(pattern.sk, parts) }
    : { [pattern.index]: fill(pattern.sk, parts) };

/** One declared pattern, with who declared it (a resource type, or a module of the data layer or an area). */
export interface DeclaredPattern extends AccessPattern {
  owner: string;
  name: string;
}

const declared = new Map<string, DeclaredPattern>();

/**
 * Registers an owner's patterns (as `defineResource` registers types) and hands them back typed, for its key
 * functions to fill. The same owner and name declared again replaces the entry (a module evaluated twice).
 */
export const declareAccessPatterns = <const Patterns extends Record<string, AccessPattern>>(
  owner: string,
  patterns: Patterns,
): Patterns => {
  for (const [name, pattern] of Object.entries(patterns)) {
    partsOf(pattern); // a part written in a way there is none of is refused here, as its module loads
    declared.set(`${owner}\n${name}`, { owner, name, ...pattern });
  }
  return patterns;
};

/** Every pattern declared so far, in declaration order. */
export const declaredAccessPatterns = (): DeclaredPattern[] => [...declared.values()];
