/** A parsed collection request, in the terms the data layer executes (parsing lives in shared/jsonapi). */

/**
 * The page size when a request names none and its organisation's settings none either (the spec leaves
 * it open; documented in docs/api.md). Here, below both, because the settings' default is this too.
 */
export const PAGE_SIZE_DEFAULT = 25;

/** Where a field lives on a stored resource, e.g. `attributes.name` or `meta.created_at`. */
export type FieldPath = string;

export interface LatLng {
  latitude: number;
  longitude: number;
}

export type FilterClause =
  | { field: string; path: FieldPath; op: 'eq'; value: string | boolean }
  | { field: string; path: FieldPath; op: 'since' | 'until'; value: string }
  /** Text that begins with the value: the type part of a polymorphic link's `<type>:<id>`. */
  | { field: string; path: FieldPath; op: 'begins'; value: string }
  | { field: string; path: FieldPath; op: 'box'; bottomLeft: LatLng; topRight: LatLng };

export interface Page {
  limit: number;
  offset: number;
  /**
   * Paging by cursor (`page[cursor]`) instead of offset: `start` for the first page, else where the
   * page before ended, as the reader that read it recorded it (`next` of its answer). Opaque outside
   * that reader; the cursor that carries it is sealed, so the service made it, though perhaps another
   * reader of the same query (an older release's): a reader resumes only from its own (`UnfitPosition`).
   */
  after?: Position;
}

/** A reader's record of where a cursor page ended: JSON it writes and reads back, nobody else. */
export type Position = 'start' | object;

/**
 * A reader handed a position it cannot resume from: sealed for the same query, but by another reader (an
 * older deployment's, or one a query took before its path changed). The page that opened the cursor
 * answers 400 (shared/engine/collection.ts, `readPage`), never a read from a key that is not one.
 */
export class UnfitPosition extends Error {
  constructor() {
    super('a cursor position this reader did not make');
  }
}

/** `after` as a plain JSON object, or `UnfitPosition`. */
export const positionObject = (after: Position): Record<string, unknown> => {
  if (typeof after !== 'object' || after === null || Array.isArray(after)) throw new UnfitPosition();
  return after as Record<string, unknown>;
};

/** One page read, its total where known, and where the next page starts when paging by cursor. */
export interface PageRead<T> {
  items: T[];
  /** Unknown only for a filtered page read by cursor (counting it would read every match). */
  total?: number;
  /** After a full cursor page: where the next one starts (a last, short page has none). */
  next?: Position;
  /** Records read with the page, as answered (derived where their type derives), that its includes may use (a nested collection's parent). */
  inHand?: T[];
}

export interface CollectionQuery {
  filters: FilterClause[];
  sort: { field: string; path: FieldPath; index?: 'lsi1' | 'lsi2'; descending: boolean };
  page: Page;
  /** Include paths split into segments: `model.manufacturer` → `['model', 'manufacturer']`. */
  include: string[][];
}

/** The value at a field path of a record, or undefined (shared with pure rules: `domain/value-at.ts`). */
export { valueAt } from '../domain/value-at';
