/** Comments: what a comment is as a resource (its writes are in comments.ts). */
import { createdAtSort, defineResource } from '../resource-definition';

export const comments = defineResource({
  type: 'comments',
  relationships: {
    organisation: { type: 'organisations' },
    author: { type: 'users' },
    author_service_account: { type: 'service-accounts' },
  },
  self: 'getComment',
  collection: {
    filters: {
      subject_id: { kind: 'eq', path: 'attributes.subject.id' },
      author: { kind: 'eq', path: 'rels.author' },
      created_at: { kind: 'time', path: 'meta.created_at' },
    },
    sorts: createdAtSort,
    defaultSort: 'created_at',
    includes: ['author', 'author_service_account'],
  },
});
