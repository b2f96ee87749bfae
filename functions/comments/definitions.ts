/** Comments: what a comment is as a resource (its writes are in comments.ts). */

import { defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';

export const comments = defineResource({
  type: 'comments',
  names: { one: 'Comment', many: 'Comments' },
  collectionPath: '/v3/orgs/{org_id}/comments',
  itemPath: '/v3/comments/{comment_id}',
  permission: 'comments',
  endpoints: {
    list: 'functions/comments/list.ts',
    get: true,
    create: { handler: 'functions/comments/create.ts', permission: 'comments:create' },
    delete: { handler: 'functions/comments/delete.ts', permission: 'comments:view' },
  },
  served: async () => {
    const { z, recordName } = await loadSchemaBuilders();
    return { body: z.string(), subject: recordName().describe('The record commented on.') };
  },
  relationships: {
    author: { type: 'users' },
    author_service_account: { type: 'service-accounts' },
  },
  keys: {
    'filter-subject': {
      index: 'gsi1',
      pk: 'COMMENTS#{attributes.subject.id}',
      sk: '{id}',
      about: "a comment under its subject, counted as a parent's children are: `filter[subject_id]`",
    },
  },
  collection: {
    // A record's comments are one Query of its index entry, a time window a key range in it: there is no
    // reading them all. `author` narrows the subject's comments (the subject is required).
    filters: {
      subject_id: {
        kind: 'eq',
        path: 'attributes.subject.id',
        required: true,
        index: 'filter-subject',
        description: 'The id of the record whose comments to list (its subject).',
      },
      author: { kind: 'eq', path: 'rels.author' },
      created_at: { kind: 'time', path: 'meta.created_at', index: 'record' },
    },
    defaultSort: 'created_at',
    includes: ['author', 'author_service_account'],
  },
});
