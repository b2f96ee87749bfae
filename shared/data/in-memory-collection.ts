/**
 * The collection engine over records already in hand, for collections bounded by the caller's grants
 * (organisations). Same semantics as the DynamoDB path: equality, inclusive time windows, boxes.
 */
import { type CollectionQuery, type FilterClause, valueAt } from './collection-query';
import type { StoredResource } from './stored-resource';

const matches = (item: unknown, f: FilterClause): boolean => {
  const value = valueAt(item, f.path);
  switch (f.op) {
    case 'eq':
      return value === f.value;
    case 'since':
      return typeof value === 'string' && value >= f.value;
    case 'until':
      return typeof value === 'string' && value <= f.value;
    case 'box': {
      const { latitude, longitude } = (value ?? {}) as { latitude?: unknown; longitude?: unknown };
      if (typeof latitude !== 'number' || typeof longitude !== 'number') return false;
      const inLatitude = latitude >= f.bottomLeft.latitude && latitude <= f.topRight.latitude;
      const inLongitude =
        f.bottomLeft.longitude <= f.topRight.longitude
          ? longitude >= f.bottomLeft.longitude && longitude <= f.topRight.longitude
          : longitude >= f.bottomLeft.longitude || longitude <= f.topRight.longitude;
      return inLatitude && inLongitude;
    }
  }
};

const sortable = (value: unknown): string =>
  typeof value === 'string' ? value.toLowerCase() : String(value ?? '');

/** Numbers by value (a version 10 after 9), everything else as case-folded text. */
const compare = (a: unknown, b: unknown): number =>
  typeof a === 'number' && typeof b === 'number' ? a - b : sortable(a).localeCompare(sortable(b));

/** Any records with an id: stored resources, or resource objects a handler computed (keys, versions). */
export const applyInMemory = <T extends { id: string } = StoredResource>(
  items: readonly T[],
  query: CollectionQuery,
): { items: T[]; total: number } => {
  const direction = query.sort.descending ? -1 : 1;
  const kept = items
    .filter((item) => query.filters.every((f) => matches(item, f)))
    .sort(
      (a, b) =>
        direction * compare(valueAt(a, query.sort.path), valueAt(b, query.sort.path)) ||
        a.id.localeCompare(b.id),
    );
  const { offset, limit } = query.page;
  return { items: kept.slice(offset, offset + limit), total: kept.length };
};
