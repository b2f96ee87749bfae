/**
 * A document's versions: each upload is one, pending until completed, its one declared move (its work and
 * writes in `completion.ts`, which reads the documents' declarations: so this one lives beside it, and
 * `../definitions.ts` names it only by type).
 */
import { defineLifecycle } from '#shared/engine/lifecycle';
import { defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';

/** The move's work and writes load when it runs: every function reads this declaration, few complete a version. */
const completion = () => import('./completion');

export const VERSION_STATES = ['pending', 'available'] as const;

export const documentVersions = defineResource({
  type: 'document-versions',
  names: { one: 'DocumentVersion', many: 'DocumentVersions' },
  collectionPath: '/v3/documents/{document_id}/versions',
  itemPath: '/v3/document-versions/{version_id}',
  permission: 'documents',
  endpoints: {
    list: 'functions/documents/versions/list.ts',
    get: true,
    create: {
      handler: 'functions/documents/versions/create.ts',
      access: { table: 'write', buckets: { documents: 'write' } },
    },
  },
  served: async () => {
    const { z, instant } = await loadSchemaBuilders();
    return {
      number: z.number().int(),
      status: z.enum(VERSION_STATES),
      content_type: z.string(),
      size: z.number().int().describe('Bytes.'),
      checksum: z.string().describe('SHA-256, base64.'),
      uploaded_at: instant().nullable(),
    };
  },
  relationships: {
    document: { type: 'documents' },
    author: { type: 'users' },
    author_service_account: { type: 'service-accounts' },
  },
  // A document's versions are numbered in the order they are made, and each one's id sorts after the last
  // one's (`addVersion`), so their partition's key order is their number's.
  childSorts: ['created_at', 'number'],
  // Listed under their document, so the status entry is per document.
  keys: {
    'filter-status': {
      index: 'lsi1',
      pk: 'ORG#{org_id}#document-versions',
      sk: 'document#{rels.document}#status#{attributes.status}#{id}',
      about:
        "a document's version under its status, in creation order: `filter[status]`; versions written before issue 42 lack it until migrated",
    },
  },
  collection: {
    filters: {
      created_at: false,
      status: { kind: 'eq', path: 'attributes.status', index: 'filter-status' },
    },
    sorts: { number: { path: 'attributes.number' } },
    defaultSort: '-number',
    includes: [],
  },
  lifecycle: defineLifecycle({
    attribute: 'status',
    states: VERSION_STATES,
    noun: 'version',
    transitions: {
      complete: {
        from: ['pending'],
        to: 'available',
        event: 'completed',
        access: { table: 'write', buckets: { documents: 'write' } },
        // Its route answered the document the version became current of before the move was declared.
        answers: 'documents',
        changes: (_version, { now }) => ({ attributes: { uploaded_at: now.toISOString() } }),
        work: async (scope, version) => (await completion()).acceptVersion(scope, version),
        writes: async (...move) => (await completion()).versionCompleted(...move),
      },
    },
  }),
});
