/**
 * Records kept as the API presents them (an event's `data`, an audit entry's sides, a subject's audit
 * state) are stored without their empty relationships and given them back when read. Most declared
 * relationships of a record are empty (an equipment item's 17 took about 520 B of its event's kilobyte),
 * and a kilobyte more is a write unit more, twice in a transaction. The type's declaration says what each
 * empty one is (`{data: null}` to one, `{data: []}` to many) and their order, so the record read back is
 * the one presented, byte for byte; one stored with its empties (before this) reads the same.
 */

/** A type's relationships in declared order, each to one or to many. */
export type RelationshipShape = Readonly<Record<string, 'one' | 'many'>>;

const emptyOf = (kind: 'one' | 'many') => ({ data: kind === 'many' ? [] : null });

/** Exactly what the type presents when the relationship names nothing (no meta, no links). */
const isEmpty = (kind: 'one' | 'many', value: unknown): boolean => {
  if (typeof value !== 'object' || value === null || Object.keys(value).length !== 1) return false;
  const data = (value as { data?: unknown }).data;
  return kind === 'many' ? Array.isArray(data) && data.length === 0 : data === null;
};

const relationshipsOf = (record: object) => {
  const { relationships } = record as { relationships?: unknown };
  return typeof relationships === 'object' && relationships !== null && !Array.isArray(relationships)
    ? (relationships as Record<string, unknown>)
    : null;
};

/** The record without its declared relationships that are empty; anything else is kept as it is. */
export const withoutEmptyRelationships = <Presented extends object>(
  shape: RelationshipShape,
  record: Presented,
): Presented => {
  const relationships = relationshipsOf(record);
  if (!relationships) return record;
  const kept = Object.entries(relationships).filter(([name, value]) => {
    const kind = shape[name];
    return kind === undefined || !isEmpty(kind, value);
  });
  return { ...record, relationships: Object.fromEntries(kept) };
};

/** The record with every declared relationship, in declared order, the ones not stored empty; others after. */
export const withEmptyRelationships = <Presented extends object>(
  shape: RelationshipShape,
  record: Presented,
): Presented => {
  const relationships = relationshipsOf(record);
  if (!relationships) return record;
  const declared = Object.entries(shape).map(([name, kind]) => [name, relationships[name] ?? emptyOf(kind)]);
  return { ...record, relationships: { ...Object.fromEntries(declared), ...relationships } };
};
