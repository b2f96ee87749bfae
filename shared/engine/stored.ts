/** Builds the stored form of a record from its definition: keys, and the sort values its indexes need. */
import {
  type AccessPattern,
  alternativesOf,
  entryAttributes,
  entryPartsOf,
  indexEntryFrom,
  partsOf,
} from '../data/access-patterns';
import { childPartition } from '../data/children';
import { sortKeyText } from '../data/collation';
import { valueAt } from '../data/collection-query';
import { geoIndexKeys } from '../data/geo-index';
import { parentCountName, type StoredRelationship, type StoredResource } from '../data/stored-resource';
import type { FilterOption } from '../jsonapi/collection-query';
import type { ResourceDefinition } from './declaration';

interface NewRecord {
  orgId: string;
  id: string;
  attributes: Record<string, unknown>;
  meta: Record<string, unknown>;
  rels?: Record<string, StoredRelationship>;
}

/**
 * The `gsi1` sort key of a child filed under its parent (children.ts): its id, or the case-folded value of
 * the field its type keys its children by (`childSorts`), then its id after a character no single-line
 * value holds, so a value sorts before every longer one it begins.
 */
export const childSortKey = (definition: ResourceDefinition, record: StoredResource): string => {
  const [first = 'created_at'] = definition.childSorts ?? [];
  const sort = definition.collection?.sorts[first];
  return first === 'created_at' || !sort
    ? record.id
    : `${sortKeyText(valueAt(record, sort.path))}\u0001${record.id}`;
};

/**
 * The children partition of the parent a counted filter's pattern names (`pack#{rels.pre_construction_information}#…`),
 * whose counter keeps the filter's counts; undefined for an organisation's pattern, null without the parent.
 */
const countedParent = (
  definition: ResourceDefinition,
  filter: FilterOption,
  record: StoredResource,
): string | null | undefined => {
  const pattern = filter.index === undefined ? undefined : definition.keys[filter.index];
  const part = pattern && partsOf(pattern).find((p) => p.startsWith('rels.'));
  const parentType = part && definition.relationships[part.slice('rels.'.length)]?.type;
  if (!part || !parentType) return undefined;
  const parentId = valueAt(record, part);
  return typeof parentId === 'string' && parentId !== ''
    ? childPartition(parentType, parentId, definition.type)
    : null;
};

/**
 * Sets the counts the record is in (`counted`, one per counted filter with a value; a per-parent filter's
 * on its parent's counter) and, where they differ from those of the version it was built from, what those
 * were (`counted_before`, until it is committed).
 */
const recount = (definition: ResourceDefinition, stored: StoredResource, next: StoredResource) => {
  const names = Object.entries(definition.collection?.filters ?? {}).flatMap(([field, filter]) => {
    const value = filter.counted ? keyText(valueAt(next, filter.path)) : undefined;
    if (value === undefined) return [];
    const parent = countedParent(definition, filter, next);
    if (parent === null) return [];
    return [parent === undefined ? `${field}#${value}` : parentCountName(parent, `${field}#${value}`)];
  });
  const before = stored.counted_before ?? stored.counted ?? [];
  delete next.counted;
  delete next.counted_before;
  if (names.length > 0) next.counted = names;
  if (names.join('\n') !== before.join('\n')) next.counted_before = before;
};

/**
 * A value as a key holds it: a non-empty string (an empty one is no key at all), or a flag as `true` or
 * `false` (an `enabled` filter's entry and count, as its equality names them: `enabled#true`).
 */
const keyText = (value: unknown): string | undefined =>
  typeof value === 'boolean' ? String(value) : typeof value === 'string' && value !== '' ? value : undefined;

/**
 * The values of the parts the record's entry on a pattern's index is filled from (`org_id`, `id`, field
 * paths; of alternatives, the first the record holds), or null if one has none.
 */
const entryParts = (pattern: AccessPattern, record: StoredResource): Record<string, string> | null => {
  const parts: Record<string, string> = { org_id: record.org_id, id: record.id };
  for (const name of entryPartsOf(pattern)) {
    const value =
      name in parts
        ? parts[name]
        : alternativesOf(name)
            .map((path) => keyText(valueAt(record, path)))
            .find((text) => text !== undefined);
    if (value === undefined) return null;
    parts[name] = value;
  }
  return parts;
};

/**
 * The record with its index sort values recomputed from its fields (after any change to them): each the
 * collation's text (data/collation.ts), so the index orders as a sort over records in hand does.
 */
export const indexed = (definition: ResourceDefinition, stored: StoredResource): StoredResource => {
  const next = { ...stored };
  if (next.gsi1_counted) next.gsi1sk = childSortKey(definition, next);
  for (const sort of Object.values(definition.collection?.sorts ?? {})) {
    if (sort.index) next[sort.index] = sortKeyText(valueAt(next, sort.path));
  }
  const sortIndexes = new Set<string | undefined>(
    Object.values(definition.collection?.sorts ?? {}).map((sort) => sort.index),
  );
  for (const filter of Object.values(definition.collection?.filters ?? {})) {
    const pattern = filter.index === undefined ? undefined : definition.keys[filter.index];
    // A box filter's entry is the geohash one, written below; a sort's value (`sort-serial`), above.
    if (!pattern || pattern.index === 'table' || filter.kind === 'box' || sortIndexes.has(pattern.index))
      continue;
    // An indexed filter's entry (indexed-filters.ts): kept with its parts' values (the filter's, and a
    // parent's where a pattern is per parent: `folder#{rels.folder}#…`; an attendance's site and sign-in,
    // `{rels.scheme|rels.location}#{attributes.signed_in_at:folded}`), gone without one (a sparse index).
    const parts = entryParts(pattern, next);
    for (const name of entryAttributes(pattern.index)) delete next[name];
    if (parts) Object.assign(next, indexEntryFrom(pattern, parts));
  }
  recount(definition, stored, next);
  if (definition.geoIndex) {
    const point = valueAt(next, definition.geoIndex.path) as
      | { latitude?: unknown; longitude?: unknown }
      | undefined;
    delete next.gsi1pk;
    delete next.gsi1sk;
    if (typeof point?.latitude === 'number' && typeof point.longitude === 'number') {
      Object.assign(next, geoIndexKeys(next.type, next.org_id, next.id, point.latitude, point.longitude));
    }
  }
  return next;
};

export const toStoredResource = (definition: ResourceDefinition, record: NewRecord): StoredResource => {
  const key = definition.keyOf(record.orgId, record.id);
  return indexed(definition, {
    ...key,
    type: definition.type,
    id: record.id,
    org_id: record.orgId,
    attributes: record.attributes,
    meta: record.meta,
    rels: record.rels ?? {},
    version: 1,
  });
};
