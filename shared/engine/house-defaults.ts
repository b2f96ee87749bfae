/**
 * The house defaults: what every declared type has unless its declaration says otherwise, so a declaration
 * states only what is its own (as Rails' conventions or JsonApiDotNetCore's resource defaults do). A type
 * is owned by its organisation (the `organisation` relationship), and its collection filters and sorts by
 * when a record was made (`created_at`, on `meta.created_at`; ids are UUIDv7, so the item's own key order
 * is creation order and the sort needs no index).
 *
 * A declaration opts out with `false` under the name (`relationships: { organisation: false }`: a type no
 * organisation owns) and overrides by declaring the name itself, which then keeps the place it is declared
 * in (the order of relationships, filters and sorts is the order answers and the OpenAPI document list
 * them). Otherwise the relationship comes first, and the filter and the sort last.
 */
import type { CollectionOptions, FilterOption, SortOption } from '../jsonapi/collection-query';
import type { CollectionDeclaration, RelationshipDefinition } from './declaration';

export const HOUSE_RELATIONSHIPS: Readonly<Record<string, RelationshipDefinition>> = {
  organisation: { type: 'organisations' },
};
export const HOUSE_FILTERS: Readonly<Record<string, FilterOption>> = {
  created_at: { kind: 'time', path: 'meta.created_at' },
};
export const HOUSE_SORTS: Readonly<Record<string, SortOption>> = {
  created_at: { path: 'meta.created_at' },
};

type Declared<T> = Readonly<Record<string, T | false>> | undefined;

/** The declared entries with the defaults the declaration neither names nor refuses, `false` dropped. */
const withDefaults = <T>(
  declared: Declared<T>,
  defaults: Readonly<Record<string, T>>,
  place: 'first' | 'last',
): Record<string, T> => {
  const implied = Object.fromEntries(
    Object.entries(defaults).filter(([name]) => !(name in (declared ?? {}))),
  );
  const own = Object.entries(declared ?? {}).filter((entry): entry is [string, T] => entry[1] !== false);
  return Object.fromEntries(
    place === 'first' ? [...Object.entries(implied), ...own] : [...own, ...Object.entries(implied)],
  );
};

export const houseRelationships = (declared: Declared<RelationshipDefinition>) =>
  withDefaults(declared, HOUSE_RELATIONSHIPS, 'first');

export const houseCollection = (declared: CollectionDeclaration): CollectionOptions => ({
  ...declared,
  filters: withDefaults(declared.filters, HOUSE_FILTERS, 'last'),
  sorts: withDefaults(declared.sorts, HOUSE_SORTS, 'last'),
});
