/**
 * Indexed filters (issue 42): a filter a type declares with an access pattern (`FilterOption.index`) is
 * answered from that pattern's keys, so a page reads what it returns at any partition size. Three shapes of
 * pattern answer filters:
 * - an equality on a sort index's value (`sort-serial`: `{attributes.serial}` on `lsi1`), for a unique
 *   attribute: the key is the case-folded value, the exact value stays a filter;
 * - a sort-key prefix ending in the id (`status#{attributes.status}#{id}` on `gsi1` or `gsi2`, or on a
 *   local index no sort uses): the records with one value, in creation order;
 * - the record's own key (`record`, `{id}`) for `created_at.since/until`: ids are UUIDv7, whose first 48
 *   bits are the millisecond `meta.created_at` was written at, so a time window is a key range. A prefix
 *   ending in the id takes the window too (`status` and `created_at.since` together);
 * - a sort index's value for a window on another time (`sort-expires_at`: `{attributes.expires_at}` on
 *   `lsi1`): the values between its bounds, dates and instants alike (ISO 8601 text orders as time);
 * - a prefix followed by an ordering value and the id (`{attributes.occurred_at:folded}#{id}` in a contact's
 *   `gsi2` partition, `status#{attributes.status}#{attributes.starts_at:folded}#{id}`): one value's records in
 *   that value's order, so a page in that sort reads what it returns; a window on the ordering value is a
 *   range inside the prefix. The ordering value is written `:folded`, as its sort index keeps it.
 * Every clause also stays in the read's filter, so an answer is exactly what the unindexed read gave.
 * An offset page's total: a counted filter's count (`FilterOption.counted`; of a per-parent pattern, the
 * parent's count), a unique value's one match, or a count-only read of the range (`total`).
 */
import { type AccessPattern, fill, partsOf } from '../data/access-patterns';
import { sortKeyText } from '../data/collation';
import type { CollectionQuery, FilterClause } from '../data/collection-query';
import type { KeyRange } from '../data/key-range';
import type { ResourceDefinition } from './declaration';

/** Sorts after every character an id (a UUID: hex digits and hyphens) holds: `<prefix>~` ends a prefix's range. */
const AFTER_IDS = '~';
/** Sorts before any ISO 8601 time (a year's digits): a window with no `since` starts here. */
const BEFORE_TIMES = '0';
/** Sorts after every character a key holds: `<prefix>` + this ends the range of any value after a prefix. */
const AFTER_VALUES = '\u{10FFFF}';
const ID = '{id}';

/**
 * A folded part just before the id, where a pattern's sort key ends: `{attributes.occurred_at:folded}#{id}`
 * for a time, or `…:folded}\u0001{id}` for text, whose values may hold characters below `#` (a space):
 * `\u0001` sorts below any character a value holds, so `smith` comes before `smith jones`, as on the sort's
 * own index (a child's sort key is spelt so too: `childSortKey`).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0001 is the separator after a text ordering value, on purpose
const ORDERING = /\{([^}:]+):folded\}(#|\u0001)\{id\}$/;

/**
 * The part a pattern orders its entries by before the id (`{attributes.occurred_at:folded}#{id}`), when it
 * is not one the read is given (the equality's, a parent's): the records of one prefix, in that part's
 * order. It is written folded, as the sort's own index keeps it, so a window is the same range on both.
 */
export const orderingPart = (pattern: AccessPattern, given: readonly string[] = []): string | undefined => {
  const part = ORDERING.exec(pattern.sk)?.[1];
  return part === undefined || given.includes(part) ? undefined : part;
};

/** The least id minted at `instant`'s millisecond: its 48 bits in hex, as a UUID spells them (`01890a5d-ac96`). */
const idAt = (instant: string): string => {
  const hex = Math.max(0, Date.parse(instant)).toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}`;
};

/** How a query reads through an index: the key range, and whether its key order is the query's sort. */
export interface IndexedRead {
  range: KeyRange;
  /** False when the range must be read whole and sorted in memory (bounded by its matches). */
  sorted: boolean;
  /**
   * How an offset page counts its matches: from the count of a counted filter on the type's counter item,
   * or a parent's for a per-parent pattern (`{counter: '<field>#<value>'}`, the filter alone); by reading them (`read`: a unique value's range
   * holds its one match); else by a count-only read of the range (a time window cannot be counted ahead).
   */
  total: { counter: string } | 'read' | 'count';
}

type TimeClause = Extract<FilterClause, { op: 'since' | 'until' }>;

const windowOf = (times: readonly TimeClause[]) => ({
  since: times.find((c) => c.op === 'since')?.value,
  until: times.find((c) => c.op === 'until')?.value,
});

/** The range of one pattern for an equality (or none) and a creation window (or none), in one organisation. */
const rangeOf = (
  pattern: AccessPattern,
  orgId: string,
  equal: Extract<FilterClause, { op: 'eq' }> | undefined,
  window: { since?: string; until?: string },
  parent: Record<string, string>,
): KeyRange => {
  const value = { ...parent, ...(equal && { [equal.path]: String(equal.value) }) };
  // A pattern may key its partition by the value (a record's comments: `COMMENTS#{attributes.subject.id}`).
  const pk = fill(pattern.pk, { org_id: orgId, ...value });
  const index = pattern.index === 'table' ? undefined : pattern.index;
  const ordering = orderingPart(pattern, Object.keys(value));
  if (ordering) {
    // The prefix the read is given, then its ordering value's window (each bound the value's whole key text).
    const prefix = fill(pattern.sk.slice(0, pattern.sk.search(ORDERING)), value);
    const separator = ORDERING.exec(pattern.sk)?.[2] ?? '#';
    return {
      pk,
      ...(index && { index }),
      // No prefix and no `since`: from the partition's start (a key is never empty).
      from: `${prefix}${window.since ? sortKeyText(window.since) : ''}` || undefined,
      to: window.until
        ? `${prefix}${sortKeyText(window.until)}${separator}${AFTER_IDS}`
        : `${prefix}${AFTER_VALUES}`,
    };
  }
  if (index?.startsWith('gsi') || pattern.sk.endsWith(ID)) {
    const prefix = fill(pattern.sk.slice(0, -ID.length), value);
    return {
      pk,
      ...(index && { index }),
      // The least id is at least '0'; an empty key value is no key at all.
      from: `${prefix}${window.since ? idAt(window.since) : '0'}`,
      to: `${prefix}${window.until ? idAt(window.until) : ''}${AFTER_IDS}`,
    };
  }
  if (equal) {
    const folded = sortKeyText(equal.value);
    return { pk, ...(index && { index }), from: folded, to: folded };
  }
  // Past `until` by the index's own text (case-folded), so a value equal to it stays in; a record without
  // the time is kept last (`sortKeyText`), after `~`, and out of every window, as the filter left it.
  return {
    pk,
    ...(index && { index }),
    from: window.since ? sortKeyText(window.since) : BEFORE_TIMES,
    to: window.until ? sortKeyText(window.until) : AFTER_IDS,
  };
};

/**
 * The indexed read of a query in one organisation, or null when none of its filters is indexed: through the
 * pattern of its first indexed equality, else of its indexed time window.
 */
export const indexedRead = (
  definition: ResourceDefinition,
  orgId: string,
  query: CollectionQuery,
  /** A parent's children (a folder's documents): its id as the part a per-parent pattern names (`rels.folder`). */
  parent: Record<string, string> = {},
): IndexedRead | null => {
  const options = definition.collection?.filters ?? {};
  // A pattern answers here only if it names exactly the parent's parts: a per-parent entry serves its
  // parent's children alone, and an organisation's entry never a parent's children.
  const fits = (pattern: AccessPattern, clause: FilterClause) => {
    const named = partsOf(pattern);
    // A part after the filter's own orders its entries (`orderingPart`): the read needs no value for it.
    const own = ['org_id', 'id', clause.path, orderingPart(pattern, [clause.path, ...Object.keys(parent)])];
    return (
      named.every((part) => part === undefined || own.includes(part) || part in parent) &&
      Object.keys(parent).every((part) => named.includes(part))
    );
  };
  const patternOf = (clause: FilterClause) => {
    // A claimed equality is read by its claim's key (claimed-filters.ts), never as a range.
    const name = options[clause.field]?.claimed ? undefined : options[clause.field]?.index;
    const pattern = name === undefined ? undefined : definition.keys[name];
    return pattern && fits(pattern, clause) ? pattern : undefined;
  };
  // Of several indexed equalities, one on a value of many (a sheet, a person) before one of a small counted
  // set (a status, a kind), whatever their order in the query: its matches are the fewer to read.
  const equalities = query.filters.filter(
    (c): c is Extract<FilterClause, { op: 'eq' }> => c.op === 'eq' && patternOf(c) !== undefined,
  );
  const equal = equalities.find((c) => !options[c.field]?.counted) ?? equalities[0];
  const times = query.filters.filter(
    (c): c is TimeClause => (c.op === 'since' || c.op === 'until') && patternOf(c) !== undefined,
  );
  const byKey = times.filter((c) => patternOf(c)?.sk === ID);
  // An equality first, else a creation window (the key), else another indexed window.
  const window = byKey.length > 0 ? byKey : times.filter((c) => c.field === times[0]?.field);
  const pattern = equal ? patternOf(equal) : window[0] && patternOf(window[0]);
  if (!pattern) return null;
  const byId = pattern.sk.endsWith(ID);
  const ordering = orderingPart(pattern, [...(equal ? [equal.path] : []), ...Object.keys(parent)]);
  const range = rangeOf(
    pattern,
    orgId,
    equal,
    ordering
      ? windowOf(times.filter((c) => c.path === ordering))
      : byId
        ? windowOf(byKey)
        : equal
          ? {}
          : windowOf(window),
    parent,
  );
  const sorted = ordering
    ? query.sort.path === ordering
    : byId
      ? query.sort.path === 'meta.created_at' && query.sort.index === undefined
      : query.sort.index === range.index;
  // A count is the organisation's for its pattern, or, for a per-parent pattern (the only kind that fits a
  // parent), that parent's, kept on its children counter (`stored.ts`), which the caller reads.
  const counted = equal && query.filters.length === 1 && options[equal.field]?.counted;
  const total = counted
    ? { counter: `${equal.field}#${String(equal.value)}` }
    : byId || !equal
      ? 'count'
      : 'read';
  return { range, sorted, total };
};
