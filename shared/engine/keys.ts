/**
 * A type's access patterns: those the engine implies from its declaration, with those it declares
 * (`keys`). Implied: `record`, the collection item (`ORG#{org_id}#<type>` / `{id}`); a `sort-<name>` for
 * each sort kept on a local secondary index (the record's partition, its case-folded value); `geo`, the
 * geohash entry of a type with a point (`geoIndex`). Registered under the type's name, for the key table.
 */
import type { AccessPattern } from '../data/access-patterns';
import { declareAccessPatterns, partsOf } from '../data/access-patterns';
import { geoPattern } from '../data/geo-index';
import { tenantPattern } from '../data/stored-resource';
import type { ResourceDeclaration, ResourceDefinition } from './declaration';

/** A sort key ending in the id after a separator (`#`, or `\u0001` after a text ordering value). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0001 is the separator after a text ordering value, on purpose
const ENDS_IN_ID = /(#|\u0001)\{id\}$/;

export const typeKeys = (
  declaration: Pick<ResourceDefinition, 'type' | 'collection' | 'geoIndex'> &
    Pick<ResourceDeclaration, 'keys'>,
): ResourceDefinition['keys'] => {
  const record = declaration.keys?.record ?? tenantPattern(declaration.type, '{id}');
  const sorts = Object.entries(declaration.collection?.sorts ?? {}).flatMap(([name, sort]) =>
    sort.index ? [[`sort-${name}`, { index: sort.index, pk: record.pk, sk: `{${sort.path}}` }] as const] : [],
  );
  const implied: Record<string, AccessPattern> = {
    record,
    ...Object.fromEntries(sorts),
    ...(declaration.geoIndex && { geo: geoPattern(declaration.type) }),
  };
  const patterns: Record<string, AccessPattern> = { ...implied, ...declaration.keys, record };
  // An indexed filter names one of the type's patterns; a prefix pattern owns the record's only entry on its index.
  const owners = new Map<string, string>(
    Object.entries(declaration.collection?.sorts ?? {}).flatMap(([name, sort]) =>
      sort.index ? [[sort.index, `sort ${name}`] as const] : [],
    ),
  );
  for (const [name, { index, counted, claimed, kind, path }] of Object.entries(
    declaration.collection?.filters ?? {},
  )) {
    const pattern = index === undefined ? undefined : patterns[index];
    if (index !== undefined && !pattern)
      throw new Error(`${declaration.type}: filter ${name} names no access pattern ${index}`);
    // A claim is a table item keyed by the organisation and the unique attribute alone (`{code}` for
    // `attributes.code`, as `UniqueAttribute` writes it: claimed-filters.ts).
    const claimParts = pattern ? partsOf(pattern).filter((p) => p !== 'org_id') : [];
    if (
      claimed &&
      (kind !== 'eq' ||
        pattern?.index !== 'table' ||
        claimParts.length !== 1 ||
        `attributes.${claimParts[0]}` !== path)
    )
      throw new Error(`${declaration.type}: claimed filter ${name} needs an equality on a claim's pattern`);
    // A count stands for the records its key prefix reads: only a prefix ending in the id has one per value.
    if (counted && !(pattern && ENDS_IN_ID.test(pattern.sk)))
      throw new Error(`${declaration.type}: counted filter ${name} needs a key prefix ending in the id`);
    if (pattern?.index === 'gsi1' && declaration.geoIndex && index !== 'geo')
      throw new Error(`${declaration.type}: filter ${name} and the geohash index both need gsi1`);
    if (pattern && pattern.index !== 'table' && ENDS_IN_ID.test(pattern.sk)) {
      const owner = owners.get(pattern.index);
      if (owner)
        throw new Error(`${declaration.type}: filter ${name} and ${owner} both need ${pattern.index}`);
      owners.set(pattern.index, `filter ${name}`);
    }
  }
  return declareAccessPatterns(declaration.type, { ...implied, ...declaration.keys, record });
};
