/**
 * How a list of attendances is read (issue 42, item 1): who was at a site is its key range on `lsi2`
 * (`<site>#<signed_in_at>`), a register's window the range of its sign-ins on `lsi1`, each inside the
 * months that hold them (`queryBucketedRange`); a person's, their `gsi2` partition; who is on a site now,
 * the sparse index; the rest as the engine reads any collection. Every range keeps sign-in order, so a
 * filtered list sorts by `signed_in_at`.
 */
import { partitionFrom } from '#shared/data/access-patterns';
import { type BucketedRange, queryBucketedRange } from '#shared/data/bucketed-ranges';
import { sortKeyText } from '#shared/data/collation';
import type { CollectionQuery, FilterClause } from '#shared/data/collection-query';
import { countKeyRange, type KeyRange, queryKeyRange } from '#shared/data/key-range';
import type { Scope } from '#shared/data/scope';
import { readCollectionPage } from '#shared/engine/collection';
import { ValidationError } from '#shared/jsonapi/errors';
import { siteAttendances } from './definitions';

/** Sorts after every character a sign-in's key text holds: `<prefix>~` ends a prefix's range. */
const AFTER = '~';

const clauseValue = (filters: readonly FilterClause[], field: string, op: 'eq' | 'since' | 'until') => {
  const clause = filters.find((f) => f.field === field && f.op === op);
  return clause && 'value' in clause ? clause.value : undefined;
};

/** The key range answering the filters, or null when none of them is a site or a sign-in window. */
export const attendanceRange = (filters: readonly FilterClause[]): BucketedRange | null => {
  const site = clauseValue(filters, 'scheme', 'eq') ?? clauseValue(filters, 'location', 'eq');
  const since = clauseValue(filters, 'signed_in_at', 'since') as string | undefined;
  const until = clauseValue(filters, 'signed_in_at', 'until') as string | undefined;
  const [from, to] = [since ? sortKeyText(since) : '', `${until ? sortKeyText(until) : ''}${AFTER}`];
  const within = { since, until };
  if (typeof site === 'string')
    return { index: 'lsi2', from: `${site}#${from}`, to: `${site}#${to}`, within };
  // A sign-in's key text starts with a digit: '0' is below every one.
  return since || until ? { index: 'lsi1', from: from || '0', to, within } : null;
};

/**
 * A person's attendances: their `gsi2` partition (every month at once: a few thousand over the years), the
 * sign-in window its key range; not beside a site, which narrows more (a site's month holds fewer of them).
 */
const personRange = (orgId: string, filters: readonly FilterClause[]): KeyRange | null => {
  const person = clauseValue(filters, 'person', 'eq');
  if (typeof person !== 'string' || attendanceRange(filters)?.index === 'lsi2') return null;
  const since = clauseValue(filters, 'signed_in_at', 'since') as string | undefined;
  const until = clauseValue(filters, 'signed_in_at', 'until') as string | undefined;
  return {
    pk: partitionFrom(siteAttendances.keys['by-person'], { org_id: orgId, 'rels.person': person }),
    index: 'gsi2',
    from: since ? sortKeyText(since) : '0',
    to: `${until ? sortKeyText(until) : ''}${AFTER}`,
  };
};

export const readAttendances = (scope: Scope, orgId: string, query: CollectionQuery) => {
  const person = personRange(orgId, query.filters);
  const range = person ? null : attendanceRange(query.filters);
  if ((!range && !person) || siteAttendances.sparseIndex?.(orgId, query.filters))
    return readCollectionPage(scope, siteAttendances, query);
  if (query.sort.field !== 'signed_in_at')
    throw new ValidationError({
      detail:
        'A list filtered by site, person or sign-in is read in sign-in order: sort by signed_in_at or -signed_in_at.',
      source: { parameter: 'sort' },
    });
  return person
    ? queryKeyRange(scope, person, query, undefined, () => countKeyRange(person, query.filters))
    : queryBucketedRange(scope, orgId, siteAttendances.type, range as BucketedRange, query);
};
