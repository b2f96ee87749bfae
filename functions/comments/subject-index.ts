/**
 * The read side of comments: the `gsi1` partition a record's comments are filed under, and the list read
 * from it. Apart from the writes (comments.ts) so that a list's first request loads no zod.
 */
import { partitionFrom } from '#shared/data/access-patterns';
import { queryFiled } from '#shared/data/children';
import { type CollectionRequest, listResources, readCollectionPage } from '#shared/engine/collection';
import { comments } from './definitions';

/** The `gsi1` partition a record's comments are filed and counted under (`filter-subject`). */
export const commentsIndexKey = (subjectId: string) =>
  partitionFrom(comments.keys['filter-subject'], { 'attributes.subject.id': subjectId });

/**
 * A record's comments in the scope (`filter[subject_id]`, which the declaration requires), from its `gsi1`
 * partition, where each is filed by id and counted (data/children.ts). In creation order and filtered by
 * nothing but the subject, the page is read and the total is the count; otherwise the engine reads the
 * subject's key range (a time window a range of ids in it: indexed-filters.ts), never the organisation's.
 */
export const listCommentsOn = (request: CollectionRequest) =>
  listResources(request, comments, (query) => {
    const subject = query.filters.find((f) => f.field === 'subject_id');
    if (subject?.op !== 'eq') throw new Error('the comments collection is declared to require subject_id');
    return query.filters.length === 1 && query.sort.field === 'created_at'
      ? queryFiled(request.scope, commentsIndexKey(String(subject.value)), query)
      : readCollectionPage(request.scope, comments, query);
  });
