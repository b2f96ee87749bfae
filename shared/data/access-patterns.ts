/**
 * Named access patterns (as ElectroDB's entity `indexes`): each kind of item, and each index entry, is
 * declared once with the index it lives on and its partition and sort keys composed from named parts
 * (`ORG#{org_id}#job-role-codes` / `{code}`). Key functions fill a pattern; nothing else spells a key,
 * so `shared/data/README.md`'s key table is written from the declarations (`npm run keys`) and
 * `test/unit/data/access-patterns.test.ts` refuses two patterns whose keys could meet.
 */
/** The table's own key, its local secondary indexes (sort values in a record's partition) and the global ones. */
export type IndexName = 'table' | 'lsi1' | 'lsi2' | 'gsi1' | 'gsi2';

export interface AccessPattern<Pk extends string = string, Sk extends string = string> {
  index: IndexName;
  /** The partition key's template: literal text and `{part}`s, separated by `#`. */
  pk: Pk;
  /** The sort key's template. On an LSI, the case-folded value it sorts by (`{attributes.name}`). */
  sk: Sk;
  /** What the key table says of the items or index entries, beyond their keys. */
  about?: string;
}

/** The parts a template is composed from: `ORG#{org_id}#{site_id}` → `'org_id' | 'site_id'`. */
type Parts<T extends string> = T extends `${string}{${infer Part}}${infer Rest}` ? Part | Parts<Rest> : never;
export type PartsOf<P extends AccessPattern> = Record<Parts<P['pk']> | Parts<P['sk']>, string>;

const PART = /\{([^}]+)\}/g;

/** The named parts a pattern's keys are built from. */
export const partsOf = ({ pk, sk }: AccessPattern): string[] =>
  [...`${pk}${sk}`.matchAll(PART)].map(([, part]) => part as string);

/** The template with its parts filled; a part missing is a programming error, thrown. */
export const fill = (template: string, parts: Record<string, string>): string =>
  template.replace(PART, (_, name: string) => {
    const value = parts[name];
    if (value === undefined) throw new Error(`${template}: no value for {${name}}`);
    return value;
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
    declared.set(`${owner}\n${name}`, { owner, name, ...pattern });
  }
  return patterns;
};

/** Every pattern declared so far, in declaration order. */
export const declaredAccessPatterns = (): DeclaredPattern[] => [...declared.values()];
