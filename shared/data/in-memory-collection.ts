/**
 * The collection engine over records already in hand, for collections bounded by the caller's grants
 * (organisations). Same semantics as the DynamoDB path: equality, prefixes, inclusive time windows, boxes.
 */
import { compareCodePoints, compareCollated } from './collation';
import {
  type CollectionQuery,
  type FilterClause,
  type PageRead,
  type Position,
  positionObject,
  UnfitPosition,
  valueAt,
} from './collection-query';
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
    case 'begins':
      return typeof value === 'string' && value.startsWith(f.value);
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

/** Where a cursor page over records in hand ended: the last record's sort value and id. */
interface MemoryPosition {
  value?: unknown;
  id: string;
}

/** The position `applyInMemory` wrote (a record's sort value and id), or `UnfitPosition`: without an id it names no place. */
export const memoryPosition = (after: Position): MemoryPosition => {
  const position = positionObject(after);
  if (typeof position.id !== 'string') throw new UnfitPosition();
  return position as unknown as MemoryPosition;
};

/**
 * Any records with an id: stored resources, or resource objects a handler computed (keys, versions).
 * Ordered by the sort field in the API's collation (collation.ts: the order a sort index keeps), then by
 * id, so a cursor (the last record's value and id) names one place; descending reverses both, as an
 * index read backwards does.
 */
export const applyInMemory = <T extends { id: string } = StoredResource>(
  items: readonly T[],
  query: CollectionQuery,
): PageRead<T> => {
  const direction = query.sort.descending ? -1 : 1;
  const order = (a: MemoryPosition, b: MemoryPosition) =>
    direction * (compareCollated(a.value, b.value) || compareCodePoints(a.id, b.id));
  const at = (item: T): MemoryPosition => ({ value: valueAt(item, query.sort.path), id: item.id });
  const kept = items
    .filter((item) => query.filters.every((f) => matches(item, f)))
    .sort((a, b) => order(at(a), at(b)));
  const { offset, limit, after } = query.page;
  if (after === undefined) return { items: kept.slice(offset, offset + limit), total: kept.length };
  const from = after === 'start' ? undefined : memoryPosition(after);
  const start = from ? kept.findIndex((item) => order(at(item), from) > 0) : 0;
  const page = start < 0 ? [] : kept.slice(start, start + limit);
  const last = page.at(-1);
  return { items: page, total: kept.length, ...(last && page.length === limit && { next: { ...at(last) } }) };
};
