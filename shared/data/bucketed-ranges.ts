/**
 * A page of a bucketed type's records through a key range of one of its `orderedWithin` local indexes in
 * each month (an attendance's site and sign-in on `lsi2`, a register's sign-ins on `lsi1`): the months that
 * hold the range's window, one after another in the index's order (time-buckets.ts), each the same key
 * range, the query's filters applied by DynamoDB. By cursor it reads at most a page from where the last
 * stopped; by offset `offset + limit` matches, and the total is a count-only read of each month's range
 * (no items come back, but it is charged the range's read units, as a time window's is: indexed-filters.ts).
 */
import {
  type CollectionQuery,
  type PageRead,
  type Position,
  positionObject,
  UnfitPosition,
} from './collection-query';
import { buildFilterExpression } from './filter-expression';
import { countKeyRange } from './key-range';
import { queryItems } from './repository';
import { inScope, type Scope } from './scope';
import type { StoredResource } from './stored-resource';
import { partitionsOf } from './time-buckets';

export interface BucketedRange {
  index: 'lsi1' | 'lsi2';
  /** The least and the greatest index value of the range, in every month it is read in. */
  from: string;
  to: string;
  /** The moments the range's values hold (a sign-in window): only the months that hold them are read. */
  within: { since?: string; until?: string };
}

/**
 * The key a cursor page resumes after, as `queryBucketedRange` wrote it (its month's partition, the id, the
 * index's value, strings), or `UnfitPosition`: DynamoDB refuses any other start key.
 */
const resumeKey = (index: BucketedRange['index'], after: Position): Record<string, string> => {
  const position = positionObject(after);
  const values = Object.entries(position);
  const fits =
    values.length === 3 &&
    values.every(([name, value]) => ['pk', 'sk', index].includes(name) && typeof value === 'string');
  if (!fits) throw new UnfitPosition();
  return position as Record<string, string>;
};

export const queryBucketedRange = async (
  scope: Scope,
  orgId: string,
  type: string,
  range: BucketedRange,
  query: CollectionQuery,
): Promise<PageRead<StoredResource>> => {
  if (!inScope(scope, orgId)) return { items: [], total: 0 };
  const { limit, offset, after } = query.page;
  const { index, from, to, within } = range;
  const resume = after && after !== 'start' ? resumeKey(index, after) : undefined;
  const { descending } = query.sort;
  const partitions = partitionsOf(orgId, type, { descending, from: resume?.sk, index, within });
  // The walk starts in the month the position's id is in: a key of another partition is no place in it.
  if (resume && resume.pk !== partitions[0]) throw new UnfitPosition();
  const filter = buildFilterExpression(query.filters);
  const wanted = after ? limit : offset + limit;
  const counted = after
    ? undefined
    : Promise.all(partitions.map((pk) => countKeyRange({ pk, index, from, to }, query.filters)));
  const items: StoredResource[] = [];
  for (const [i, pk] of partitions.entries()) {
    const still = wanted - items.length;
    const read = await queryItems(
      {
        IndexName: index,
        KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
        ExpressionAttributeNames: { '#pk': 'pk', '#sk': index, ...filter?.names },
        ExpressionAttributeValues: { ':pk': pk, ':from': from, ':to': to, ...filter?.values },
        ...(filter && { FilterExpression: filter.expression }),
        // Without other filters every item read is returned; with them, later reads ask for 1 MB pages.
        Limit: still,
        ScanIndexForward: !descending,
      },
      still,
      i === 0 ? resume : undefined,
    );
    items.push(...read);
    if (items.length >= wanted) break;
  }
  if (!after) {
    const totals = (await counted) ?? [];
    return { items: items.slice(offset, offset + limit), total: totals.reduce((sum, n) => sum + n, 0) };
  }
  const page = items.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page,
    ...(page.length === limit && last && { next: { pk: last.pk, sk: last.sk, [index]: last[index] } }),
  };
};
