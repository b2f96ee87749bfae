/**
 * One partition (of the table, of `gsi1`, or of `lsi1`) read in its key order a page at a time, its total
 * counted elsewhere: a kept collection's live days (retention.ts), a parent's children (children.ts).
 */

import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from './clients';
import { compareCodePoints } from './collation';
import {
  type CollectionQuery,
  type PageRead,
  type Position,
  positionObject,
  UnfitPosition,
} from './collection-query';
import { buildFilterExpression } from './filter-expression';
import { queryItems } from './repository';
import { inScope, type Scope } from './scope';
import type { StoredResource } from './stored-resource';

export interface KeyRange {
  pk: string;
  index?: 'gsi1' | 'gsi2' | 'lsi1' | 'lsi2';
  /** The least sort key of the range, when it starts inside the partition (a retention window's first day). */
  from?: string;
  /** The greatest sort key of the range, when it ends inside the partition (with `from`: a prefix's). */
  to?: string;
}

const KEYS = {
  table: ['pk', 'sk'],
  gsi1: ['gsi1pk', 'gsi1sk'],
  gsi2: ['gsi2pk', 'gsi2sk'],
  lsi1: ['pk', 'lsi1'],
  lsi2: ['pk', 'lsi2'],
} as const;

/**
 * The key a cursor page of `range` resumes after, as `queryKeyRange` wrote it (the table's key and the
 * index's, strings, inside the range), or `UnfitPosition`: DynamoDB refuses any other start key.
 */
const resumeKey = (range: KeyRange, after: Position): Record<string, string> => {
  const position = positionObject(after);
  const [pkName, skName] = KEYS[range.index ?? 'table'];
  const names = new Set<string>([...KEYS.table, pkName, skName]);
  const values = Object.entries(position);
  const fits =
    values.length === names.size &&
    values.every(([name, value]) => names.has(name) && typeof value === 'string') &&
    position[pkName] === range.pk &&
    (range.from === undefined || compareCodePoints(String(position[skName]), range.from) >= 0) &&
    (range.to === undefined || compareCodePoints(String(position[skName]), range.to) <= 0);
  if (!fits) throw new UnfitPosition();
  return position as Record<string, string>;
};

/** The key condition of a range: its partition, and its sort keys from `from` (up to `to`). */
const keyCondition = ({ pk, index, from, to }: KeyRange) => {
  const [pkName, skName] = KEYS[index ?? 'table'];
  // A range from a partition's start has no `from` (a key is never empty, so '' cannot stand for it).
  const sk =
    from === undefined
      ? to === undefined
        ? ''
        : ' AND #sk <= :to'
      : to === undefined
        ? ' AND #sk >= :from'
        : ' AND #sk BETWEEN :from AND :to';
  return {
    expression: `#pk = :pk${sk}`,
    names: { '#pk': pkName, ...(sk && { '#sk': skName }) },
    values: {
      ':pk': pk,
      ...(from !== undefined && { ':from': from }),
      ...(to !== undefined && sk && { ':to': to }),
    },
  };
};

/**
 * How many items of the range match `filters`, by a count-only Query (DynamoDB returns no items, and
 * charges the read units of every item it looks at: one call per 1 MB of the range).
 */
export const countKeyRange = async (
  range: KeyRange,
  filters: CollectionQuery['filters'],
): Promise<number> => {
  const filter = buildFilterExpression(filters);
  const key = keyCondition(range);
  let total = 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const out = await documents.send(
      new QueryCommand({
        TableName: tableName,
        ...(range.index && { IndexName: range.index }),
        KeyConditionExpression: key.expression,
        ExpressionAttributeNames: { ...key.names, ...filter?.names },
        ExpressionAttributeValues: { ...key.values, ...filter?.values },
        ...(filter && { FilterExpression: filter.expression }),
        Select: 'COUNT',
        ExclusiveStartKey,
      }),
    );
    total += out.Count ?? 0;
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return total;
};

/**
 * A page of the range, oldest or newest first, filters applied by DynamoDB; records outside the scope are
 * dropped. By offset unfiltered, the page reads `offset + limit` items and the total comes from `count`,
 * read in parallel; filtered, the matches are read in full, which counts them, unless `matches` counts
 * them (then the page reads `offset + limit` matches); by cursor, the page resumes from the last one's key
 * and reads at most a page (filtered: until a page of matches, in 1 MB pages).
 */
export const queryKeyRange = async (
  scope: Scope,
  range: KeyRange,
  query: CollectionQuery,
  /** The range's total, read in parallel; without it an unfiltered page leaves its total to the caller. */
  count?: () => Promise<number>,
  /** The filtered range's total (a counted filter's count, `countKeyRange`), read in parallel by offset. */
  matches?: () => Promise<number>,
  /** The share of the range the filters keep, when known (a counted value's): see `queryItems`. */
  share = 1,
): Promise<PageRead<StoredResource>> => {
  const { limit, offset, after } = query.page;
  const filter = buildFilterExpression(query.filters);
  const key = keyCondition(range);
  const counter = filter ? matches : count;
  const wanted = after ? limit : filter && !counter ? Number.POSITIVE_INFINITY : offset + limit;
  const [read, counted] = await Promise.all([
    queryItems(
      {
        ...(range.index && { IndexName: range.index }),
        KeyConditionExpression: key.expression,
        ExpressionAttributeNames: { ...key.names, ...filter?.names },
        ExpressionAttributeValues: { ...key.values, ...filter?.values },
        ...(filter && { FilterExpression: filter.expression }),
        ...(Number.isFinite(wanted) && { Limit: wanted }),
        ScanIndexForward: !query.sort.descending,
      },
      wanted,
      after && after !== 'start' ? resumeKey(range, after) : undefined,
      share,
    ),
    after && filter ? undefined : counter?.(),
  ]);
  const items = read.filter((item) => inScope(scope, item.org_id));
  if (!after)
    return { items: items.slice(offset, offset + limit), total: counter || !filter ? counted : items.length };
  const page = items.slice(0, limit);
  const last = page.at(-1);
  const position = (item: StoredResource) => ({
    pk: item.pk,
    sk: item.sk,
    ...(range.index === 'gsi1' && { gsi1pk: item.gsi1pk, gsi1sk: item.gsi1sk }),
    ...(range.index === 'gsi2' && { gsi2pk: item.gsi2pk, gsi2sk: item.gsi2sk }),
    ...(range.index === 'lsi1' && { lsi1: item.lsi1 }),
    ...(range.index === 'lsi2' && { lsi2: item.lsi2 }),
  });
  return { items: page, total: counted, ...(last && page.length === limit && { next: position(last) }) };
};
