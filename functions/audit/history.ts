/** A record's own history (its audit entries, filed by subject on `gsi1`), a page at a time. */
import { queryChildren } from '#shared/data/children';
import type { CollectionQuery, PageRead } from '#shared/data/collection-query';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import type { ResourceDefinition } from '#shared/engine/resource-definition';
import { notFound } from '#shared/engine/single';
import { historyCounter, historySubjects, subjectIndexKey } from './audit-events';

/**
 * One page of a record's history: the Query of its `gsi1` partition, then the record and its counter in
 * the organisation its entries name (data/children.ts), not the record looked up in every organisation the
 * caller reads. 404 when the record is not in the caller's scope.
 */
export const historyPage = async (
  scope: Scope,
  subject: ResourceDefinition,
  subjectId: string,
  query: CollectionQuery,
): Promise<PageRead<StoredResource>> => {
  // Only these types' entries are filed under their subject: another's history would read as empty.
  if (!historySubjects.has(subject.type))
    throw new Error(`${subject.type} entries are not filed by subject: add the type to historySubjects`);
  const { parent, page } = await queryChildren(
    scope,
    { keyOf: subject.keyOf, id: subjectId },
    subjectIndexKey(subjectId),
    query,
    (orgId) => historyCounter(orgId, subjectId),
  );
  if (!parent) throw notFound(subject, subjectId);
  return page;
};
