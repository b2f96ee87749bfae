/** A parsed collection request, in the terms the data layer executes (parsing lives in shared/jsonapi). */

/** Where a field lives on a stored resource, e.g. `attributes.name` or `meta.created_at`. */
export type FieldPath = string;

export interface LatLng {
  latitude: number;
  longitude: number;
}

export type FilterClause =
  | { field: string; path: FieldPath; op: 'eq'; value: string | boolean }
  | { field: string; path: FieldPath; op: 'since' | 'until'; value: string }
  | { field: string; path: FieldPath; op: 'box'; bottomLeft: LatLng; topRight: LatLng };

export interface Page {
  limit: number;
  offset: number;
}

export interface CollectionQuery {
  filters: FilterClause[];
  sort: { field: string; path: FieldPath; index?: 'lsi1' | 'lsi2'; descending: boolean };
  page: Page;
  /** Include paths split into segments: `model.manufacturer` → `['model', 'manufacturer']`. */
  include: string[][];
}

/** The value at a field path of a record, or undefined. */
export const valueAt = (record: unknown, path: FieldPath): unknown =>
  path
    .split('.')
    .reduce<unknown>(
      (v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined),
      record,
    );
