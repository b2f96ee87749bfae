/**
 * The collection engine's front half: the spec's "Collection query features" parsed and validated once,
 * for every collection, against the options an endpoint declares. Pure; the data layer executes it.
 */
import {
  type CollectionQuery,
  type FieldPath,
  type FilterClause,
  type LatLng,
  PAGE_SIZE_DEFAULT,
  type Page,
} from '../data/collection-query';
import { ValidationError } from './errors';

export { PAGE_SIZE_DEFAULT };
/** The maximum page size (the spec leaves it open; documented in docs/api.md). */
export const PAGE_SIZE_MAX = 100;
/**
 * The largest offset: the largest integer a JSON number carries exactly (2^53 − 1, RFC 8259 §6), so
 * `meta.pagination` echoes what was asked. Any offset up to it beyond the end is a 200 with an empty page.
 */
export const PAGE_OFFSET_MAX = Number.MAX_SAFE_INTEGER;

export type FilterKind = 'eq' | 'time' | 'box';

export interface FilterOption {
  kind: FilterKind;
  path: FieldPath;
  /** Equality filters on boolean fields take `true` or `false`. */
  type?: 'boolean';
  /**
   * An equality filter the collection cannot be read without (a record's comments are one Query of its
   * index entry): absent is a 400 naming it, and the OpenAPI document marks it required.
   */
  required?: true;
  /** The fewest characters an equality filter's value has, not counting spaces around it. */
  minLength?: number;
  /** What the filter means, where it is not exact equality on its field (the document says it). */
  description?: string;
  /**
   * An equality filter on a polymorphic relationship (`polymorphicFilters`), whose stored value is
   * `<type>:<id>`: `record` takes `<type>:<id>` of one of `types`; `type` takes one of `types` and selects
   * every record whose link names one of that type. Anything else is a 400 naming the types.
   */
  link?: { types: readonly string[]; part: 'record' | 'type' };
  /**
   * The access pattern of the type's keys that answers this filter (an indexed filter): an equality on a
   * sort index's value (`sort-serial`), a prefix of an index's sort key ending in the id
   * (`status#{attributes.status}#{id}`), or, for `created_at`, a key range on the UUIDv7 ids (`record`);
   * a box filter names the geohash pattern (`geo`), which answers it on its own path (geo-index.ts).
   * On a collection that declares any, a filter without one is taken only beside an indexed one, which
   * bounds what it reads (shared/engine/indexed-filters.ts).
   */
  index?: string;
  /**
   * An equality on the record's parent in a tree (a work order's `scheme`): answered by the type's
   * `readSubtree` from what lies under that parent (its subtree on the tree index, or the children it
   * lists), never the partition; named with the indexed filters (`meta.features`, the 400).
   */
  subtree?: true;
  /**
   * An indexed equality on a value from a small fixed set (a status): each value's records are counted on
   * the type's counter item (`<field>#<value>`), moved by the transaction that creates, changes or deletes
   * one, so an offset page of the filter alone reads its page and that count, not every match.
   */
  counted?: true;
  /**
   * An equality on a value unique in the organisation, whose uniqueness claim (the pattern `index` names,
   * the one `UniqueAttribute.claim` writes) says which record holds it: answered by reading the claim and
   * then that record, two items at any collection size (shared/engine/claimed-filters.ts).
   */
  claimed?: true;
}

export interface SortOption {
  path: FieldPath;
  /** The local index whose sort key holds this field; omitted when the item's own `sk` order is it. */
  index?: 'lsi1' | 'lsi2';
}

export interface CollectionOptions {
  filters: Record<string, FilterOption>;
  sorts: Record<string, SortOption>;
  defaultSort: string;
  includes: readonly string[];
}

/** Query parameters as API Gateway hands them over: repeated names arrive comma-joined. */
export type QueryParameters = Readonly<Record<string, string | undefined>>;

/** A 400 naming the query parameter at fault. */
export const problem = (parameter: string, detail: string) =>
  new ValidationError({ detail, source: { parameter } });

const INTEGER = /^-?\d+$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;
const DECIMAL = /^\s*-?\d{1,3}(\.\d+)?\s*$/;

// Digit strings of any length: one beyond `max` converts to a number above it (or Infinity), never below.
export const parseInteger = (parameter: string, raw: string, min: number, max: number): number => {
  if (!INTEGER.test(raw)) throw problem(parameter, `${parameter} must be an integer.`);
  const value = Number(raw);
  if (value < min) throw problem(parameter, `${parameter} must be ${min} or more.`);
  if (value > max) throw problem(parameter, `${parameter} must be ${max} or less.`);
  return value === 0 ? 0 : value;
};

/** Whether a request names its page size (else the organisation's default, or the API's, applies). */
export const namesPageSize = (query: QueryParameters): boolean =>
  query['page[limit]'] !== undefined || query.limit !== undefined;

/**
 * `limit`/`offset` and `page[limit]`/`page[offset]`; the `page[...]` form wins when both are sent.
 * `defaultLimit`: the page size when none is named (an organisation's setting).
 */
export const parsePage = (query: QueryParameters, defaultLimit = PAGE_SIZE_DEFAULT): Page => {
  const limitName = query['page[limit]'] !== undefined ? 'page[limit]' : 'limit';
  const offsetName = query['page[offset]'] !== undefined ? 'page[offset]' : 'offset';
  const rawLimit = query[limitName];
  const rawOffset = query[offsetName];
  return {
    limit: rawLimit === undefined ? defaultLimit : parseInteger(limitName, rawLimit, 1, PAGE_SIZE_MAX),
    offset: rawOffset === undefined ? 0 : parseInteger(offsetName, rawOffset, 0, PAGE_OFFSET_MAX),
  };
};

/**
 * `page[cursor]`, as sent: empty for the first page read by cursor, else a cursor a page gave in
 * `links.next` (opened against the query by the collection engine). A page is read by cursor or by
 * offset, never both.
 */
export const parseCursor = (query: QueryParameters): string | undefined => {
  const cursor = query['page[cursor]'];
  if (cursor === undefined) return undefined;
  const offset = ['page[offset]', 'offset'].find((name) => query[name] !== undefined);
  if (offset) {
    throw problem(
      offset,
      `${offset} cannot be sent with page[cursor]: a page is read after a cursor or at an offset, not both.`,
    );
  }
  return cursor;
};

/**
 * The include paths an endpoint accepts: each one it declares and every prefix of one (`model` for
 * `model.manufacturer`), in declaration order. The parser and `meta.features` both read this list.
 */
export const includeOptions = (declared: readonly string[]): string[] => [
  ...new Set(declared.flatMap((path) => path.split('.').map((_, i, s) => s.slice(0, i + 1).join('.')))),
];

/** `include`: comma-separated dotted paths, each one the endpoint declares (or a prefix of one). */
export const parseInclude = (query: QueryParameters, allowed: readonly string[]): string[][] => {
  const raw = query.include;
  if (raw === undefined || raw.trim() === '') return [];
  const options = includeOptions(allowed);
  const known = new Set(options);
  const paths = [...new Set(raw.split(',').map((p) => p.trim()))];
  const unknown = paths.filter((p) => !known.has(p));
  if (unknown.length > 0) {
    throw problem(
      'include',
      `Unknown include path ${unknown.join(', ')}; options: ${options.join(', ') || 'none'}.`,
    );
  }
  return paths.map((p) => p.split('.'));
};

const parseTimestamp = (parameter: string, raw: string): string => {
  const time = Date.parse(raw);
  if (!TIMESTAMP.test(raw) || Number.isNaN(time)) {
    throw problem(parameter, `${parameter} must be an ISO 8601 date-time such as 2026-01-31T09:00:00Z.`);
  }
  return new Date(time).toISOString();
};

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar date a route's own query parameter names (`filter[on]`, `filter[day]`): a day that exists. */
export const parseCalendarDate = (parameter: string, raw: string): string => {
  const time = Date.parse(`${raw}T00:00:00Z`);
  if (!DATE.test(raw) || Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== raw)
    throw problem(parameter, `${parameter} must be a date, YYYY-MM-DD, such as 2026-01-31.`);
  return raw;
};

const parseLatLng = (parameter: string, raw: string | undefined): LatLng => {
  const parts = raw?.split(',') ?? [];
  const [lat, lng] = parts;
  if (
    parts.length !== 2 ||
    lat === undefined ||
    lng === undefined ||
    !DECIMAL.test(lat) ||
    !DECIMAL.test(lng)
  ) {
    throw problem(parameter, `${parameter} must be "latitude,longitude" in decimal degrees.`);
  }
  const latitude = Number(lat);
  const longitude = Number(lng);
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
    throw problem(parameter, `${parameter} is outside latitude -90..90 or longitude -180..180.`);
  }
  return { latitude, longitude };
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The clause of a filter on a polymorphic relationship: see `FilterOption.link`. */
const linkClause = (
  name: string,
  field: string,
  path: string,
  { types, part }: NonNullable<FilterOption['link']>,
  raw: string,
): FilterClause => {
  if (part === 'type') {
    if (!types.includes(raw)) throw problem(name, `${name} must be one of: ${types.join(', ')}.`);
    return { field, path, op: 'begins', value: `${raw}:` };
  }
  const colon = raw.indexOf(':');
  if (!types.includes(raw.slice(0, colon)) || !UUID.test(raw.slice(colon + 1)))
    throw problem(name, `${name} must be <type>:<id>, the type one of: ${types.join(', ')}.`);
  return { field, path, op: 'eq', value: raw };
};

const FILTER =
  /^filter\[([a-z0-9_]+(?:\.[a-z0-9_]+)*?)(?:\.(since|until)|\.box\.(bottom_left|top_right))?\]$/;

const parseFilters = (query: QueryParameters, options: CollectionOptions['filters']): FilterClause[] => {
  const clauses: FilterClause[] = [];
  const boxes = new Set<string>();
  for (const [name, raw] of Object.entries(query)) {
    if (!name.startsWith('filter[') || raw === undefined) continue;
    const m = FILTER.exec(name);
    const field = m?.[1];
    const option = field !== undefined && Object.hasOwn(options, field) ? options[field] : undefined;
    const op = m?.[2] ?? (m?.[3] ? 'box' : 'eq');
    const expected = op === 'since' || op === 'until' ? 'time' : op;
    if (!field || !option || option.kind !== expected) {
      throw problem(
        name,
        `Unknown filter ${name}; options: ${featureFilterOptions(options).join(', ') || 'none'}.`,
      );
    }
    if (op === 'eq') {
      if (raw === '') throw problem(name, `${name} needs a value.`);
      if (option.minLength !== undefined && raw.trim().length < option.minLength)
        throw problem(name, `${name} needs at least ${option.minLength} characters.`);
      if (option.type === 'boolean' && raw !== 'true' && raw !== 'false') {
        throw problem(name, `${name} must be true or false.`);
      }
      if (option.link) {
        clauses.push(linkClause(name, field, option.path, option.link, raw));
        continue;
      }
      clauses.push({
        field,
        path: option.path,
        op: 'eq',
        value: option.type === 'boolean' ? raw === 'true' : raw,
      });
    } else if (op === 'since' || op === 'until') {
      clauses.push({ field, path: option.path, op, value: parseTimestamp(name, raw) });
    } else if (!boxes.has(field)) {
      boxes.add(field);
      const corner = (c: string) => `filter[${field}.box.${c}]`;
      for (const c of ['bottom_left', 'top_right']) {
        if (query[corner(c)] === undefined)
          throw problem(corner(c), `${corner(c)} is required with the other corner.`);
      }
      const bottomLeft = parseLatLng(corner('bottom_left'), query[corner('bottom_left')]);
      const topRight = parseLatLng(corner('top_right'), query[corner('top_right')]);
      if (bottomLeft.latitude > topRight.latitude) {
        throw problem(
          corner('bottom_left'),
          'The bottom-left corner must not lie north of the top-right corner.',
        );
      }
      clauses.push({ field, path: option.path, op: 'box', bottomLeft, topRight });
    }
  }
  const missing = Object.keys(options).find(
    (field) => options[field]?.required && !clauses.some((clause) => clause.field === field),
  );
  if (missing !== undefined) {
    const about = options[missing]?.description;
    throw problem(`filter[${missing}]`, `filter[${missing}] is required.${about ? ` ${about}` : ''}`);
  }
  return clauses;
};

/** The parameter names of a filter option: `status`; `created_at.since`, `created_at.until`; a box's corners. */
const filterNames = (field: string, { kind }: FilterOption): string[] =>
  kind === 'eq'
    ? [field]
    : kind === 'time'
      ? [`${field}.since`, `${field}.until`]
      : [`${field}.box.bottom_left`, `${field}.box.top_right`];

/** The filter names of a collection's indexed filters (`FilterOption.index`), in declaration order. */
export const indexedFilterNames = (options: CollectionOptions['filters']): string[] =>
  Object.entries(options).flatMap(([field, option]) =>
    option.index || option.subtree ? filterNames(field, option) : [],
  );

/**
 * On a collection with indexed filters, filters that are not indexed are taken only beside an indexed one,
 * which bounds what they read: alone they would read the whole partition to find their matches. The 400
 * names the indexed ones.
 */
const refuseUnindexed = (clauses: readonly FilterClause[], options: CollectionOptions['filters']) => {
  const indexed = indexedFilterNames(options);
  const bounds = (clause: FilterClause) => options[clause.field]?.index || options[clause.field]?.subtree;
  if (indexed.length === 0 || clauses.some(bounds)) return;
  const [first] = clauses;
  if (!first) return;
  const name = `filter[${first.field}${first.op === 'since' || first.op === 'until' ? `.${first.op}` : first.op === 'box' ? '.box.bottom_left' : ''}]`;
  throw problem(
    name,
    `${name} is not indexed here: send it with an indexed filter (${indexed.join(', ')}), which bounds what it reads.`,
  );
};

/** `sort`: the first field of a comma list is applied, `-` for descending; the rest are ignored. */
const parseSort = (query: QueryParameters, options: CollectionOptions): CollectionQuery['sort'] => {
  if (query.sort !== undefined && (query.sort.split(',')[0]?.trim() ?? '') === '') {
    throw problem(
      'sort',
      `sort names a field first (only the first of a comma list is applied); options: ${Object.keys(options.sorts).join(', ')}.`,
    );
  }
  const first = query.sort?.split(',')[0]?.trim() || options.defaultSort;
  const descending = first.startsWith('-');
  const field = descending ? first.slice(1) : first;
  // Own fields only: `sort=constructor` must not find Object.prototype's.
  const option = Object.hasOwn(options.sorts, field) ? options.sorts[field] : undefined;
  if (!option) {
    throw problem('sort', `Unknown sort field ${field}; options: ${Object.keys(options.sorts).join(', ')}.`);
  }
  return { field, path: option.path, ...(option.index && { index: option.index }), descending };
};

const COLLECTION_PARAMETERS = /^(include|sort|limit|offset|page\[(limit|offset|cursor)\]|filter\[.+\])$/;

/** Rejects any query parameter the endpoint does not understand (no silently ignored typos). */
export const rejectUnknownParameters = (query: QueryParameters, known: RegExp): void => {
  const unknown = Object.keys(query).filter((name) => !known.test(name));
  const [first] = unknown;
  if (first !== undefined) throw problem(first, `Unknown query parameter ${first}.`);
};

/** A collection request's query, and its `page[cursor]` as sent (see `parseCursor`). */
export interface ParsedCollectionQuery extends CollectionQuery {
  cursor?: string;
}

export const parseCollectionQuery = (
  query: QueryParameters,
  options: CollectionOptions,
  defaultLimit?: number,
): ParsedCollectionQuery => {
  rejectUnknownParameters(query, COLLECTION_PARAMETERS);
  const cursor = parseCursor(query);
  const filters = parseFilters(query, options.filters);
  refuseUnindexed(filters, options.filters);
  return {
    filters,
    sort: parseSort(query, options),
    page: parsePage(query, defaultLimit),
    include: parseInclude(query, options.includes),
    ...(cursor !== undefined && { cursor }),
  };
};

/** Single-resource reads take only `include`. */
export const parseResourceQuery = (query: QueryParameters, includes: readonly string[]): string[][] => {
  rejectUnknownParameters(query, /^include$/);
  return parseInclude(query, includes);
};

const featureFilterOptions = (filters: CollectionOptions['filters']): string[] =>
  Object.entries(filters).flatMap(([field, option]) => filterNames(field, option));

export interface FeatureOptions {
  filter: readonly string[];
  /** The filters read through an index (`FilterOption.index`); absent where none is. */
  indexedFilter?: readonly string[];
  include: readonly string[];
  sort: readonly string[];
}

/**
 * `meta.features`: the spec's general rule gives every collection `params.<filter|include|sort>.options`;
 * its cost-rollups and sso-providers sections name `include.options`. Every collection serves both, the
 * include options one value in both places, so a client written from either text finds them.
 */
export const features = ({ filter, indexedFilter = [], include, sort }: FeatureOptions) => {
  const includes = { options: [...include] };
  return {
    params: {
      filter: { options: [...filter], ...(indexedFilter.length > 0 && { indexed: [...indexedFilter] }) },
      include: includes,
      sort: { options: [...sort] },
    },
    include: includes,
  };
};

export type FeaturesMeta = ReturnType<typeof features>;

/** `meta.features` of a declared collection: the very names its parsers accept. */
export const featuresMeta = (options: CollectionOptions) =>
  features({
    filter: featureFilterOptions(options.filters),
    indexedFilter: indexedFilterNames(options.filters),
    include: includeOptions(options.includes),
    sort: Object.keys(options.sorts),
  });
